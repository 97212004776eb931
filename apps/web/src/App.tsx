import { useEffect, useState } from 'react';

type Health = { status: string; mode: string } | null;

/** The shell the web issue builds on: it shows that the gateway and services answer. */
export function App() {
  const [health, setHealth] = useState<Health>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    fetch('/api/health')
      .then((answer) => answer.json() as Promise<{ data: Health }>)
      .then((body) => setHealth(body.data))
      .catch(() => setFailed(true));
  }, []);

  return (
    <main className="shell">
      <h1>拾柳</h1>
      <p>校园图文社区</p>
      <p className="status" data-testid="health">
        {failed ? '网络连接失败，请检查网络设置' : health ? `服务状态：${health.status === 'up' ? '正常' : '部分不可用'}` : '加载中…'}
      </p>
    </main>
  );
}
