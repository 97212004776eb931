import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/** Not-found countdown (public-side.md §9). */
const COUNTDOWN_S = 5;

/** 你访问的页面不见了, with a 5 s countdown to /explore and 返回首页. */
export function NotFound() {
  const [left, setLeft] = useState(COUNTDOWN_S);
  const navigate = useNavigate();
  useEffect(() => {
    document.title = '页面不见了 - 拾柳';
    const timer = setInterval(() => setLeft((value) => value - 1), 1000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left <= 0) void navigate('/explore', { replace: true });
  }, [left, navigate]);
  return (
    <section className="not-found">
      <div className="not-found-art" aria-hidden="true">404</div>
      <h1>你访问的页面不见了</h1>
      <p className="countdown">{Math.max(left, 0)} 秒后自动返回首页</p>
      <button type="button" className="button primary large" onClick={() => void navigate('/explore', { replace: true })}>
        返回首页
      </button>
    </section>
  );
}
