import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Avatar } from '../components/Avatar';
import { Spinner } from '../components/Feedback';
import { ApiError } from '../lib/api/client';
import { richTextToPlain } from '../lib/rich-text';
import { adminApi, adminTyped } from './api';
import { type Activity, activityLabel, activityLink, activityTime, counts, merge, type Span, SPANS } from './monitor';

/** New activities appear without reload: the first page is read again at this interval. */
const POLL_MS = 3000;
const MONTH_MS = 30 * 24 * 3_600_000;
const HISTORY_PAGE = 100;
const HISTORY_PAGES = 50;

async function readPage(page: number, limit: number) {
  try {
    return await adminTyped(adminApi.GET('/api/admin/monitor/activities', { params: { query: { page, limit } } }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 0) throw new ApiError('网络错误，请稍后重试', 0);
    throw new ApiError((error as Error).message || '获取动态失败', (error as ApiError).status ?? 0);
  }
}

/**
 * The last 30 days of activity for the charts. No counts call exists, so they are counted from the activity list,
 * read page by page until an activity older than 30 days (or the end, or a cap) is reached.
 */
async function readMonth(): Promise<Activity[]> {
  const since = Date.now() - MONTH_MS;
  const all: Activity[] = [];
  for (let page = 1; page <= HISTORY_PAGES; page++) {
    const activities = await readPage(page, HISTORY_PAGE);
    all.push(...activities);
    // The answer is the list alone: a page shorter than asked for is the last one.
    if (activities.length < HISTORY_PAGE || activities.some((item) => new Date(item.created_at).getTime() < since)) break;
  }
  return all;
}

const SERIES = [
  { type: 'user_register', label: '新注册', color: '#4f8cff' },
  { type: 'post_publish', label: '新笔记', color: '#ff2442' },
  { type: 'comment_publish', label: '新评论', color: '#12b886' },
] as const;

function Bars({ values, color, label }: { values: number[]; color: string; label: string }) {
  const max = Math.max(1, ...values);
  const width = 100 / values.length;
  return (
    <svg className="admin-bars" viewBox="0 0 100 32" preserveAspectRatio="none" role="img" aria-label={label}>
      {values.map((value, index) => {
        const height = value ? Math.max(2, (value / max) * 30) : 0.6;
        return <rect key={index} x={index * width + width * 0.15} y={32 - height} width={width * 0.7} height={height} rx={0.6} fill={value ? color : 'var(--surface-3)'} />;
      })}
    </svg>
  );
}

function Charts({ items, now }: { items: Activity[]; now: Date }) {
  const [span, setSpan] = useState<Span>('day');
  return (
    <section className="admin-card monitor-charts" aria-label="动态统计">
      <header className="monitor-charts-head">
        <h2>动态统计</h2>
        <div className="segmented" role="tablist">
          {(['day', 'month'] as const).map((value) => (
            <button key={value} type="button" role="tab" aria-selected={span === value} className={span === value ? 'active' : ''} onClick={() => setSpan(value)}>
              {value === 'day' ? '近24小时' : '近30天'}
            </button>
          ))}
        </div>
      </header>
      <div className="monitor-series">
        {SERIES.map((series) => {
          const values = counts(items, series.type, span, now);
          const total = values.reduce((sum, value) => sum + value, 0);
          return (
            <div key={series.type} className="monitor-stat" data-type={series.type}>
              <span className="monitor-stat-label">{series.label}</span>
              <strong className="monitor-stat-value" data-testid={`count-${series.type}`}>
                {total}
              </strong>
              <Bars values={values} color={series.color} label={`${series.label}${span === 'day' ? '（每小时）' : '（每天）'}`} />
              <span className="monitor-axis">
                <span>{span === 'day' ? `${SPANS.day.bars}小时前` : `${SPANS.month.bars}天前`}</span>
                <span>现在</span>
              </span>
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The activity monitor (admin-and-startup.md §2.6), live by polling, with counts over 24 hours and 30 days. */
export default function MonitorPage() {
  const recent = useQuery({ queryKey: ['admin-monitor', 'recent'], queryFn: () => readPage(1, 30), refetchInterval: POLL_MS, refetchIntervalInBackground: false, retry: false, staleTime: 0 });
  const month = useQuery({ queryKey: ['admin-monitor', 'month'], queryFn: readMonth, refetchInterval: 60_000, retry: false, staleTime: 0 });
  // The clock is read on every render, so an activity that arrives with a poll is counted at once; the tick only
  // moves the bars along while nothing new arrives.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((tick) => tick + 1), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  const now = new Date();
  const list = recent.data ?? [];
  const all = merge(month.data ?? [], list);
  return (
    <div className="monitor">
      <Charts items={all} now={now} />
      <section className="admin-card monitor-list" aria-label="最新动态">
        <header className="monitor-list-head">
          <h2>最新动态</h2>
          <span className="monitor-live">
            <span className="monitor-dot" /> 实时
          </span>
        </header>
        {recent.isPending ? (
          <div className="admin-center">
            <Spinner />
          </div>
        ) : recent.error && !list.length ? (
          <p className="admin-empty error">{recent.error.message}</p>
        ) : list.length === 0 ? (
          <p className="admin-empty">暂无动态</p>
        ) : (
          <ul className="activity-list">
            {list.map((item) => {
              const href = activityLink(item);
              return (
                <li key={`${item.type}:${item.id}`}>
                  <a className="activity" data-type={item.type} href={href ?? undefined} target="_blank" rel="noreferrer">
                    <Avatar src={item.avatar} size={40} />
                    <span className="activity-body">
                      <span className="activity-line">
                        <strong>{item.nickname}</strong>
                        <span className={`activity-type ${item.type}`}>{activityLabel(item.type)}</span>
                      </span>
                      <span className="activity-text">{item.description}</span>
                      {item.content && item.type !== 'user_register' && <span className="activity-content">{richTextToPlain(item.content)}</span>}
                    </span>
                    <time className="activity-time" dateTime={item.created_at}>
                      {activityTime(item.created_at, now)}
                    </time>
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
