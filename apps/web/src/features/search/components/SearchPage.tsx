import { useInfiniteQuery } from '@tanstack/react-query';
import { type MouseEvent, useCallback, useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { CardLike } from '../../../components/CardLike';
import { EmptyState, Skeleton, Spinner } from '../../../components/Feedback';
import { FEED_NEAR_END, useNearEnd } from '../../../hooks/useNearEnd';
import { FollowButton } from '../../../components/FollowButton';
import { Icon, VerifiedBadge } from '../../../components/Icon';
import { LazyImage } from '../../../components/LazyImage';
import { Waterfall } from '../../../components/Waterfall';
import { useOpenNote } from '../../../hooks/useOpenNote';
import type { components } from '../../../lib/api/schema.d';
import { createChannelSwitcher } from '../../../lib/channel-switch';
import { formatCount } from '../../../lib/format';
import { searchResultsQuery, type SearchTab } from '../api/search';
import { highlightParts } from '../search-history';

type SearchPost = components['schemas']['SearchPostView'];
type SearchUser = components['schemas']['SearchUserView'];

/** The results tabs (public-side.md §2). */
const TABS: { key: SearchTab; label: string }[] = [
  { key: 'all', label: '全部' },
  { key: 'post', label: '图文' },
  { key: 'video', label: '视频' },
  { key: 'user', label: '用户' },
];
/** The tag switch's transition (public-side.md §2). */
const TAG_SWITCH_MS = 700;

function Highlighted({ marked }: { marked: string }) {
  return (
    <>
      {highlightParts(marked).map((part, index) => (part.mark ? <em key={index}>{part.text}</em> : <span key={index}>{part.text}</span>))}
    </>
  );
}

function ResultCard({ post, onOpen }: { post: SearchPost; onOpen: (event: MouseEvent<HTMLAnchorElement>, id: number) => void }) {
  const cover = post.image ?? post.cover_url ?? post.images[0];
  return (
    <article className="card" data-note-id={post.id}>
      <a href={`/post?id=${post.id}`} className="card-link" onClick={(event) => onOpen(event, post.id)} aria-label={post.title || '笔记'}>
        <div className="card-cover" style={{ aspectRatio: '3 / 4' }}>
          {cover ? <LazyImage src={cover} alt={post.title} /> : <div className="lazy-image failed" />}
          {post.type === 2 && (
            <span className="card-video" aria-label="视频">
              <Icon name="play" size={14} filled />
            </span>
          )}
        </div>
        {post.title && (
          <h3 className="card-title search-title">
            <Highlighted marked={post.title_highlight || post.title} />
          </h3>
        )}
      </a>
      <div className="card-footer">
        <a className="card-author" href={`/user/${post.user_id}`} target="_blank" rel="noreferrer">
          <Avatar src={post.user_avatar || post.avatar} size={20} />
          <span className="card-author-name">{post.nickname || post.author || '匿名用户'}</span>
          <VerifiedBadge level={post.author_verified ?? post.verified} size={12} />
        </a>
        <CardLike note={post} />
      </div>
    </article>
  );
}

function UserRow({ user }: { user: SearchUser }) {
  return (
    <li className="search-user">
      <a href={`/user/${user.user_id}`} target="_blank" rel="noreferrer" className="search-user-link">
        <Avatar src={user.avatar} size={48} />
        <span className="search-user-text">
          <span className="search-user-name">
            {user.nickname}
            <VerifiedBadge level={user.verified} size={14} />
          </span>
          <span className="search-user-meta">
            小石榴号：{user.user_id} · 笔记 {formatCount(user.post_count)} · 粉丝 {formatCount(user.fans_count)}
          </span>
          {user.bio && <span className="search-user-bio">{user.bio}</span>}
        </span>
      </a>
      <FollowButton userId={user.user_id} initial={user.buttonType} size="small" />
    </li>
  );
}

/** /search_result/{tab}?keyword=&tag=: tabs, a tag strip, notes in the waterfall or users with follow buttons. */
export default function SearchPage({ tab }: { tab: SearchTab }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const openNote = useOpenNote();
  const keyword = (params.get('keyword') ?? '').trim();
  const tag = (params.get('tag') ?? '').trim();
  const searchable = Boolean(keyword || tag);

  const tagRef = useRef(tag);
  tagRef.current = tag;
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const switcher = useMemo(
    () =>
      createChannelSwitcher(
        (next) => {
          const copy = new URLSearchParams(paramsRef.current);
          if (next) copy.set('tag', next);
          else copy.delete('tag');
          setParams(copy);
        },
        () => tagRef.current,
        TAG_SWITCH_MS,
      ),
    [setParams],
  );
  useEffect(() => () => switcher.dispose(), [switcher]);

  useEffect(() => {
    document.title = `${keyword || (tag ? `#${tag}` : '搜索')} - 拾柳`;
  }, [keyword, tag]);

  const results = useInfiniteQuery({ ...searchResultsQuery(tab, keyword, tag), enabled: searchable });
  const posts = useMemo(() => {
    const seen = new Set<number>();
    return (results.data?.pages ?? []).flatMap((page) => page.posts.data).filter((post) => !seen.has(post.id) && seen.add(post.id));
  }, [results.data]);
  const users = useMemo(() => {
    const pages = results.data?.pages ?? [];
    return tab === 'user' ? pages.flatMap((page) => page.users.data) : (pages[0]?.users.data ?? []);
  }, [results.data, tab]);
  const tagStats = results.data?.pages[0]?.tagStats ?? [];

  const { fetchNextPage, hasNextPage, isFetchingNextPage } = results;
  const more = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const sentinel = useRef<HTMLDivElement>(null);
  useNearEnd(sentinel, tab === 'user' ? more : undefined, FEED_NEAR_END, `${tab}:${users.length}`);

  const query = params.toString() ? `?${params.toString()}` : '';
  const footer = <div className="feed-end">{isFetchingNextPage ? <Spinner /> : hasNextPage ? null : <span>— 没有更多了 —</span>}</div>;

  let body;
  if (!searchable) body = <EmptyState text="输入关键词或选择标签开始搜索" />;
  else if (results.isPending)
    body =
      tab === 'user' ? (
        <ul className="search-users">
          <Skeleton type="user-item" />
        </ul>
      ) : (
        <div className="waterfall skeletons">
          <Skeleton count={8} />
        </div>
      );
  else if (tab === 'user')
    body =
      users.length === 0 ? (
        <EmptyState text={results.isError ? '搜索失败' : '暂无用户数据'} />
      ) : (
        <>
          <ul className="search-users">
            {users.map((user) => (
              <UserRow key={user.user_id} user={user} />
            ))}
          </ul>
          <div ref={sentinel}>{footer}</div>
        </>
      );
  else
    body = (
      <>
        {tab === 'all' && users.length > 0 && (
          <section className="search-user-strip" aria-label="相关用户">
            <div className="search-section-head">
              <h2>相关用户</h2>
              <Link to={`/search_result/user${query}`} className="text-button">
                查看全部
              </Link>
            </div>
            <ul className="search-users">
              {users.slice(0, 3).map((user) => (
                <UserRow key={user.user_id} user={user} />
              ))}
            </ul>
          </section>
        )}
        {posts.length === 0 ? (
          <EmptyState text={results.isError ? '搜索失败' : '暂无笔记'} />
        ) : (
          <Waterfall items={posts} estimate={(post) => (post.title ? 1.75 : 1.55)} render={(post) => <ResultCard post={post} onOpen={openNote} />} onEnd={more} footer={footer} />
        )}
      </>
    );

  return (
    <section className="search-page">
      <header className="search-head">
        {(keyword || tag) && (
          <h1 className="search-heading">
            {keyword ? `“${keyword}”` : ''}
            {tag && <span className="search-tag-label">#{tag}</span>}
          </h1>
        )}
        <nav className="search-tabs" role="tablist" aria-label="搜索类型">
          {TABS.map((each) => (
            <button key={each.key} type="button" role="tab" aria-selected={each.key === tab} className={`search-tab ${each.key === tab ? 'active' : ''}`} onClick={() => void navigate(`/search_result/${each.key}${query}`, { replace: true })}>
              {each.label}
            </button>
          ))}
        </nav>
        {tab !== 'user' && tagStats.length > 0 && (
          <div className="tag-strip" aria-label="相关标签">
            {tag && (
              <button type="button" className="chip" onClick={() => switcher.pick('')}>
                全部
              </button>
            )}
            {tagStats.map((stat) => (
              <button key={stat.id} type="button" className={`chip ${stat.label === tag ? 'active' : ''}`} aria-pressed={stat.label === tag} onClick={() => switcher.pick(stat.label === tag ? '' : stat.label)}>
                #{stat.label}
                <span className="chip-count">{stat.count}</span>
              </button>
            ))}
          </div>
        )}
      </header>
      {body}
    </section>
  );
}
