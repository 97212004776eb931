import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Spinner } from '../components/Feedback';
import { buildGroups, type Endpoint, filterGroups, highlightParts, type OpenApiDocument } from './docs';
import { NOTIFICATION_TYPES, VERIFICATION_TYPES } from './entities';

/** §2.5 and §9: the header's update date, the scroll after which the search box sticks, the token lifetime. */
const UPDATED = '2024-09-28';
/** The base URL the docs name (§1: localhost port 3001), shown beside the one this site answers on. */
const DOCUMENTED_BASE = 'http://localhost:3001/api';
const STICKY_AFTER = 1000;
const TOKEN_SECONDS = 3600;
const STATUSES: [number, string][] = [
  [200, '成功'],
  [400, '请求参数错误'],
  [401, '未授权访问（未登录或令牌失效）'],
  [403, '禁止访问（无权限）'],
  [404, '资源不存在'],
  [500, '服务器内部错误'],
];
/** The docs page's own reading of the verification types (§3 gives it apart from the screen's). */
const DOCS_VERIFICATION_TYPES = { '1': '个人认证', '2': '企业认证' };

function Highlight({ text, query }: { text: string; query: string }) {
  return (
    <>
      {highlightParts(text, query).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  );
}

function EndpointCard({ endpoint, query }: { endpoint: Endpoint; query: string }) {
  return (
    <article className="api-endpoint" data-path={endpoint.path} data-method={endpoint.method}>
      <header className="api-endpoint-head">
        <span className={`api-method ${endpoint.method.toLowerCase()}`}>{endpoint.method}</span>
        <code className="api-path">
          <Highlight text={endpoint.path} query={query} />
        </code>
        {endpoint.auth ? <span className="api-auth">需要认证</span> : <span className="api-auth open">无需认证</span>}
      </header>
      <h4 className="api-title">
        <Highlight text={endpoint.title} query={query} />
      </h4>
      {endpoint.description !== endpoint.title && (
        <p className="api-description">
          <Highlight text={endpoint.description} query={query} />
        </p>
      )}
      {endpoint.params.length > 0 ? (
        <div className="api-table-wrap">
          <table className="api-table">
            <thead>
              <tr>
                <th>参数名</th>
                <th>类型</th>
                <th>必填</th>
                <th>说明</th>
              </tr>
            </thead>
            <tbody>
              {endpoint.params.map((param) => (
                <tr key={param.name}>
                  <td>
                    <code>{param.name}</code>
                  </td>
                  <td>{param.type}</td>
                  <td>{param.required ? '是' : '否'}</td>
                  <td>{param.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">无参数</p>
      )}
      <details className="api-example">
        <summary>响应示例</summary>
        <pre>{JSON.stringify(endpoint.example, null, 2)}</pre>
      </details>
    </article>
  );
}

function Notes() {
  return (
    <section className="admin-card api-notes" aria-label="通用说明">
      <h2>通用说明</h2>
      <div className="api-notes-grid">
        <div>
          <h3>响应格式</h3>
          <p>所有接口返回 JSON，code 为 200 表示成功：</p>
          <pre>{JSON.stringify({ code: 200, message: 'success', data: {} }, null, 2)}</pre>
          <p>列表接口的 data 包含数据列表与分页信息 pagination（page、limit、total、pages）。</p>
        </div>
        <div>
          <h3>状态码</h3>
          <table className="api-table compact">
            <tbody>
              {STATUSES.map(([code, text]) => (
                <tr key={code}>
                  <td>
                    <code>{code}</code>
                  </td>
                  <td>{text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <h3>认证</h3>
          <p>
            需要认证的接口在请求头携带 <code>Authorization: Bearer &lt;JWT&gt;</code>。访问令牌有效期 {TOKEN_SECONDS} 秒，过期后用刷新令牌换取新令牌。所有管理接口都需要管理员令牌。
          </p>
          <h3>分页</h3>
          <p>
            <code>page</code> 页码，默认 1；<code>limit</code> 每页条数，默认 20。
          </p>
        </div>
        <div>
          <h3>业务规则</h3>
          <ul>
            <li>注册：小石榴号 3-15 位字母、数字或下划线；昵称 2-10 位；密码 6-20 位。</li>
            <li>视频最大 100MB，支持 mp4、avi、mov；图片每张最大 5MB，每篇最多 9 张。</li>
            <li>通知类型：{Object.entries(NOTIFICATION_TYPES).map(([value, label]) => `${value} ${label}`).join('，')}。</li>
            <li>
              认证类型：{Object.entries(DOCS_VERIFICATION_TYPES).map(([value, label]) => `${value} ${label}`).join('，')}（审核页显示为 {Object.entries(VERIFICATION_TYPES).map(([value, label]) => `${value} ${label}`).join('，')}）；认证状态：0 待审核，1 已通过，2 已拒绝；拒绝时需填写 reject_reason。
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}

/** The API documentation page (admin-and-startup.md §2.5), rendered from the gateway's merged OpenAPI document. */
export default function ApiDocsPage() {
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: async () => {
      const answer = await fetch('/api/docs/openapi.json');
      if (!answer.ok) throw new Error('接口文档加载失败');
      return (await answer.json()) as OpenApiDocument;
    },
    staleTime: Infinity,
  });
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [closed, setClosed] = useState<Set<string>>(new Set());
  const [stuck, setStuck] = useState(false);
  useEffect(() => {
    const onScroll = () => setStuck(window.scrollY > STICKY_AFTER);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  const groups = useMemo(() => (doc.data ? buildGroups(doc.data) : []), [doc.data]);
  const shown = useMemo(() => filterGroups(groups, deferred), [groups, deferred]);
  const count = shown.reduce((sum, group) => sum + group.endpoints.length, 0);
  const toggle = (tag: string) => {
    const next = new Set(closed);
    if (next.has(tag)) next.delete(tag);
    else next.add(tag);
    setClosed(next);
  };
  return (
    <div className="api-docs">
      <header className="admin-card api-hero">
        <h1>拾柳 API 文档</h1>
        <p className="api-hero-sub">拾柳 · 校园图文社区开放接口参考</p>
        <dl className="api-meta">
          <div>
            <dt>版本</dt>
            <dd>v{doc.data?.info.version ?? '1.2.0'}</dd>
          </div>
          <div>
            <dt>基础地址</dt>
            <dd>
              <code>{`${location.origin}/api`}</code>
              <span className="api-base-documented">
                文档所写：<code>{DOCUMENTED_BASE}</code>
              </span>
            </dd>
          </div>
          <div>
            <dt>更新时间</dt>
            <dd>{UPDATED}</dd>
          </div>
        </dl>
      </header>
      <Notes />
      <div className="api-search-slot">
        <div className={`api-search${stuck ? ' stuck' : ''}`} data-stuck={stuck}>
          <input type="search" aria-label="搜索接口" placeholder="按路径、标题或描述搜索接口" value={query} onChange={(event) => setQuery(event.target.value)} />
          {query && <span className="muted">{count} 个接口</span>}
        </div>
      </div>
      {doc.isPending ? (
        <div className="admin-center">
          <Spinner />
        </div>
      ) : doc.error ? (
        <p className="admin-empty error">{doc.error.message}</p>
      ) : shown.length === 0 ? (
        <p className="admin-empty">未找到匹配的接口</p>
      ) : (
        shown.map((group) => {
          const open = deferred.trim() !== '' || !closed.has(group.tag);
          return (
            <section key={group.tag} className="admin-card api-group" data-tag={group.tag}>
              <button type="button" className="api-group-head" aria-expanded={open} onClick={() => toggle(group.tag)}>
                <span className="api-group-title">{group.title}</span>
                <span className="muted">{group.endpoints.length} 个接口</span>
                <span className={`api-chevron${open ? ' open' : ''}`} aria-hidden="true">
                  ›
                </span>
              </button>
              {open && (
                <div className="api-group-body">
                  {group.endpoints.map((endpoint) => (
                    <EndpointCard key={`${endpoint.method} ${endpoint.path}`} endpoint={endpoint} query={deferred} />
                  ))}
                </div>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}
