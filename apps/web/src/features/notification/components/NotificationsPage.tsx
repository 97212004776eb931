import { useInfiniteQuery, type UseInfiniteQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Avatar } from '../../../components/Avatar';
import { BackToTop } from '../../../components/BackToTop';
import { EmptyState, Skeleton, Spinner } from '../../../components/Feedback';
import { FollowButton } from '../../../components/FollowButton';
import { Icon, VerifiedBadge } from '../../../components/Icon';
import { LazyImage } from '../../../components/LazyImage';
import { useLike } from '../../../hooks/useLike';
import { useNearEnd } from '../../../hooks/useNearEnd';
import { notePath, useOpenNote } from '../../../hooks/useOpenNote';
import { useScrolledPast } from '../../../hooks/useScrolledPast';
import type { UnreadCounts } from '../../../hooks/useSessionStart';
import { ApiError } from '../../../lib/api/client';
import { commentContent } from '../../../lib/comment-images';
import { relativeTime } from '../../../lib/format';
import { commentHtml } from '../../../lib/rich-text';
import { useSession } from '../../../lib/session';
import { NOTIFICATIONS_TOAST_MS, toast, useToastDuration } from '../../../lib/toast';
import {
  followStatusesQuery,
  type GroupedTab,
  markAllRead,
  markGroupRead,
  markRead,
  type Notification,
  notificationCommentLikeView,
  type NotificationGroup,
  notificationGroupsQuery,
  notificationKeys,
  notificationListQuery,
  patchGroups,
  patchItem,
  patchList,
  replyTo,
  unreadQuery,
} from '../api/notifications';
import { ACTION_TEXT, applyRead, groupActors, NOTIFICATION_NEAR_END, type NotificationTab, TABS } from '../notifications';

/** What a comment made of images alone reads as here: notifications carry a comment's text only (public-side.md §3). */
const IMAGE_ONLY = '[图片]';
/** The tabs the page shows grouped by note (or comment) and day. */
const GROUPED_TABS: GroupedTab[] = ['likes', 'collections'];
const isGrouped = (tab: NotificationTab): tab is GroupedTab => (GROUPED_TABS as NotificationTab[]).includes(tab);
/** The back-to-top button shows after this much scrolling (public-side.md §2). */
const TOP_AFTER_PX = 200;

function setCounts(client: ReturnType<typeof useQueryClient>, counts: UnreadCounts) {
  client.setQueryData(notificationKeys.unread, counts);
  useSession.getState().setUnread(counts.total ?? counts.count ?? 0);
}

/** The inline reply under a comment notification: sent only when the trimmed text is non-empty. */
function InlineReply({ item, onDone }: { item: Notification; onDone: () => void }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => input.current?.focus(), []);
  const send = async (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content || !item.post_id || sending) return;
    setSending(true);
    try {
      await replyTo(item, commentContent(content, []));
      toast.success('回复成功');
      onDone();
    } catch (error) {
      toast.error(error instanceof ApiError && error.status > 0 && error.status < 500 ? error.message : '回复失败，请稍后重试');
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="notice-reply" onSubmit={(event) => void send(event)}>
      <textarea
        ref={input}
        value={text}
        maxLength={2000}
        rows={2}
        placeholder={`回复 ${item.from_nickname}`}
        aria-label={`回复 ${item.from_nickname}`}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDone();
        }}
      />
      <div className="notice-reply-actions">
        <button type="button" className="button ghost small" onClick={onDone}>
          取消
        </button>
        <button type="submit" className="button primary small" disabled={!text.trim() || sending}>
          {sending ? '发送中...' : '发送'}
        </button>
      </div>
    </form>
  );
}

function NotificationItem({ item, tab, mutual, onRead }: { item: Notification; tab: NotificationTab; mutual: boolean; onRead: (item: Notification) => void }) {
  const client = useQueryClient();
  const openNote = useOpenNote();
  const [replying, setReplying] = useState(false);
  const isComment = item.type === 4 || item.type === 5 || item.type === 7;
  const byAuthor = item.post_author_id !== null && item.post_author_id === item.from_user_auto_id && item.type !== 6;
  // A comment, reply, mention or comment like opens the note at that comment.
  const located = (isComment || item.type === 2) && item.comment_id ? item.comment_id : undefined;
  const action = item.type === 6 && mutual ? '你们已互相关注' : (ACTION_TEXT[item.type] ?? item.title);

  // The spec keeps the optimistic change when a comment like fails on this page.
  const like = useLike<Notification>({ view: notificationCommentLikeView(client, tab), targetOf: (notice) => ({ target_type: 2, target_id: notice.comment_id ?? 0 }), keepOnFailure: true });
  const likeComment = () => {
    if (!item.comment_id) {
      toast.error('评论ID不存在，无法点赞');
      return;
    }
    like(item);
  };

  return (
    <li className={`notice ${item.is_read ? '' : 'unread'}`} data-notification-id={item.id} onMouseEnter={() => !item.is_read && onRead(item)} onFocus={() => !item.is_read && onRead(item)}>
      <a className="notice-avatar" href={`/user/${item.from_user_id}`} target="_blank" rel="noreferrer" aria-label={item.from_nickname}>
        <Avatar src={item.from_avatar} size={44} />
      </a>
      <div className="notice-body">
        <div className="notice-head">
          <a className="notice-name" href={`/user/${item.from_user_id}`} target="_blank" rel="noreferrer">
            {item.from_nickname || '匿名用户'}
          </a>
          <VerifiedBadge level={item.from_verified} size={14} />
          {byAuthor && <span className="author-badge">作者</span>}
          {!item.is_read && <span className="unread-dot" aria-label="未读" />}
        </div>
        <p className="notice-action">
          {action}
          <time dateTime={item.created_at}>{relativeTime(item.created_at)}</time>
        </p>
        {item.type === 8 && <p className="notice-text muted">点击查看详情</p>}
        {isComment && item.comment_content !== null && <p className="notice-text" dangerouslySetInnerHTML={{ __html: commentHtml(item.comment_content || IMAGE_ONLY) }} />}
        {item.type === 5 && item.parent_comment_content !== null && <blockquote className="notice-quote" dangerouslySetInnerHTML={{ __html: commentHtml(item.parent_comment_content || IMAGE_ONLY) }} />}
        {item.type === 2 && item.comment_content !== null && <blockquote className="notice-quote" dangerouslySetInnerHTML={{ __html: commentHtml(item.comment_content || IMAGE_ONLY) }} />}
        {isComment && (
          <div className="notice-tools">
            <button type="button" className="text-button" onClick={() => setReplying(!replying)} aria-expanded={replying}>
              <Icon name="comment" size={16} />
              回复
            </button>
            <button type="button" className={`text-button ${item.comment_is_liked ? 'liked' : ''}`} onClick={likeComment} aria-pressed={item.comment_is_liked} aria-label={item.comment_is_liked ? '取消点赞评论' : '点赞评论'}>
              <Icon name="heart" size={16} filled={item.comment_is_liked} />
              {item.comment_like_count > 0 ? item.comment_like_count : '赞'}
            </button>
          </div>
        )}
        {replying && <InlineReply item={item} onDone={() => setReplying(false)} />}
      </div>
      {item.type === 6 ? (
        <div className="notice-side">
          <FollowButton userId={item.from_user_id} initial={mutual ? 'mutual' : 'back'} size="small" />
        </div>
      ) : (
        item.post_id && (
          <a className="notice-cover" href={notePath(item.post_id, located)} onClick={(event) => openNote(event, item.post_id as number, located)} aria-label="查看笔记">
            {item.post_image ? <LazyImage src={item.post_image} alt="笔记封面" /> : <Icon name="image" size={22} />}
          </a>
        )
      )}
    </li>
  );
}

/** What names a group: its type, target and day. */
const groupKey = (group: NotificationGroup) => `${group.type}-${group.target_id}-${group.day}`;

/** The avatars of a group's newest senders, overlapping. */
function StackedAvatars({ actors }: { actors: NotificationGroup['actors'] }) {
  return (
    <span className="notice-stack" aria-hidden="true">
      {actors.map((actor) => (
        <Avatar key={actor.user_id} src={actor.avatar} size={actors.length === 1 ? 44 : 32} />
      ))}
    </span>
  );
}

/** One note's (or comment's) likes or collections of a day; hovering or tapping it, or opening the note, reads the whole group. */
function NotificationGroupItem({ group, onRead }: { group: NotificationGroup; onRead: (group: NotificationGroup) => void }) {
  const openNote = useOpenNote();
  const actors = groupActors(
    group.actors.map((actor) => actor.nickname),
    group.actor_count,
  );
  const located = group.type === 2 && group.comment_id ? group.comment_id : undefined;
  return (
    <li
      className={`notice ${group.is_read ? '' : 'unread'}`}
      data-group={groupKey(group)}
      onMouseEnter={() => !group.is_read && onRead(group)}
      onFocus={() => !group.is_read && onRead(group)}
      onClick={() => !group.is_read && onRead(group)}
    >
      <StackedAvatars actors={group.actors} />
      <div className="notice-body">
        <div className="notice-head">
          <span className="notice-name">{actors}</span>
          {group.actors.length === 1 && <VerifiedBadge level={group.actors[0].verified} size={14} />}
          {!group.is_read && <span className="unread-dot" aria-label="未读" />}
        </div>
        <p className="notice-action">
          {group.title}
          <time dateTime={group.latest_at}>{relativeTime(group.latest_at)}</time>
        </p>
        {group.type === 2 && group.comment_content !== null && <blockquote className="notice-quote" dangerouslySetInnerHTML={{ __html: commentHtml(group.comment_content || IMAGE_ONLY) }} />}
      </div>
      {group.post_id && (
        <a className="notice-cover" href={notePath(group.post_id, located)} onClick={(event) => openNote(event, group.post_id as number, located)} aria-label={`查看笔记 ${group.post_title ?? ''}`.trim()}>
          {group.post_image ? <LazyImage src={group.post_image} alt="笔记封面" /> : <Icon name="image" size={22} />}
        </a>
      )}
    </li>
  );
}

/** The end of a tab's list: asks for the next page as it nears the viewport, then says there is no more. */
function ListEnd({ list, count }: { list: Pick<UseInfiniteQueryResult, 'fetchNextPage' | 'hasNextPage' | 'isFetchingNextPage'>; count: number }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = list;
  useNearEnd(
    sentinel,
    () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    NOTIFICATION_NEAR_END,
    count,
  );
  return (
    <div ref={sentinel} className="feed-end">
      {isFetchingNextPage ? <Spinner /> : hasNextPage ? null : <span>— 没有更多了 —</span>}
    </div>
  );
}

/** The likes or collections tab: one item per note (or comment) and day. */
function NotificationGroupList({ tab }: { tab: GroupedTab }) {
  const client = useQueryClient();
  const list = useInfiniteQuery(notificationGroupsQuery(tab));
  const groups = (list.data?.pages ?? []).flatMap((page) => page.groups);

  const reading = useRef(new Set<string>());
  const read = (group: NotificationGroup) => {
    const key = groupKey(group);
    if (reading.current.has(key)) return;
    reading.current.add(key);
    const same = (each: NotificationGroup) => groupKey(each) === key;
    patchGroups(client, tab, (each) => (same(each) ? { ...each, is_read: 1 } : each));
    // Only the server knows how many of the group were unread: its counts replace the badge's.
    markGroupRead(group)
      .then((counts) => setCounts(client, counts))
      .catch(() => undefined);
  };

  if (list.isPending) return <Skeleton type="user-item" />;
  if (groups.length === 0) return <EmptyState text={list.isError ? '加载失败' : '暂无通知'} />;
  return (
    <>
      <ul className="notice-list">
        {groups.map((group) => (
          <NotificationGroupItem key={groupKey(group)} group={group} onRead={read} />
        ))}
      </ul>
      <ListEnd list={list} count={groups.length} />
    </>
  );
}

function NotificationList({ tab }: { tab: NotificationTab }) {
  const client = useQueryClient();
  const list = useInfiniteQuery(notificationListQuery(tab));
  const items = (list.data?.pages ?? []).flatMap((page) => page.notifications);
  const followIds = tab === 'follows' ? [...new Set(items.map((item) => item.from_user_id))] : [];
  const statuses = useQuery(followStatusesQuery(followIds));
  const followed = new Set((statuses.data?.statuses ?? []).filter((state) => state.followed).map((state) => state.user_id));

  const reading = useRef(new Set<number>());
  const read = (item: Notification) => {
    if (reading.current.has(item.id)) return;
    reading.current.add(item.id);
    patchItem(client, tab, item.id, { is_read: 1 });
    const before = client.getQueryData<UnreadCounts>(notificationKeys.unread);
    if (before) setCounts(client, applyRead(before, tab));
    markRead(item.id)
      .then((counts) => setCounts(client, counts))
      .catch(() => undefined);
  };

  if (list.isPending) return <Skeleton type="user-item" />;
  if (items.length === 0) return <EmptyState text={list.isError ? '加载失败' : '暂无通知'} />;
  return (
    <>
      <ul className="notice-list">
        {items.map((item) => (
          <NotificationItem key={item.id} item={item} tab={tab} mutual={followed.has(item.from_user_id)} onRead={read} />
        ))}
      </ul>
      <ListEnd list={list} count={items.length} />
    </>
  );
}

/** /notification: four tabs with a sliding indicator and unread dots, read on hover, mark all read, back to top. */
export default function NotificationsPage() {
  const user = useSession((state) => state.user);
  const client = useQueryClient();
  const [tab, setTab] = useState<NotificationTab>('comments');
  const scrolled = useScrolledPast(TOP_AFTER_PX);
  const counts = useQuery(unreadQuery(Boolean(user)));
  useToastDuration(NOTIFICATIONS_TOAST_MS);

  useEffect(() => {
    document.title = '通知 - 拾柳';
  }, []);

  if (!user) {
    return (
      <section className="notice-page">
        <h1 className="visually-hidden">通知</h1>
        <EmptyState text="登录后查看通知">
          <button type="button" className="button primary" onClick={() => useSession.getState().openAuth()}>
            登录
          </button>
        </EmptyState>
      </section>
    );
  }

  const markAll = async () => {
    try {
      const answer = await markAllRead();
      setCounts(client, answer);
      for (const each of TABS) {
        patchList(client, each.key, (item) => ({ ...item, is_read: 1 }));
      }
      for (const each of GROUPED_TABS) {
        patchGroups(client, each, (group) => ({ ...group, is_read: 1 }));
      }
      await client.invalidateQueries({ queryKey: notificationKeys.unread });
      toast.success('已全部标记为已读');
    } catch {
      toast.error('操作失败，请稍后重试');
    }
  };

  const index = TABS.findIndex((each) => each.key === tab);
  return (
    <section className="notice-page">
      <h1 className="visually-hidden">通知</h1>
      <div className="notice-tabs" role="tablist" aria-label="通知类型">
        {TABS.map((each) => (
          <button key={each.key} type="button" role="tab" aria-selected={each.key === tab} className={`notice-tab ${each.key === tab ? 'active' : ''}`} onClick={() => setTab(each.key)}>
            {each.label}
            {(counts.data?.[each.key] ?? 0) > 0 && <span className="unread-dot" aria-label={`${counts.data?.[each.key]} 条未读`} />}
          </button>
        ))}
        <span className="notice-indicator" style={{ transform: `translateX(${index * 100}%)` }} aria-hidden="true" />
      </div>
      <div role="tabpanel" aria-label={TABS[index]?.label}>
        {isGrouped(tab) ? <NotificationGroupList key={tab} tab={tab} /> : <NotificationList key={tab} tab={tab} />}
      </div>
      <div className="floating">
        <button type="button" className="float-button" onClick={() => void markAll()} aria-label="全部已读" title="全部已读">
          <Icon name="check" size={20} />
          <span className="float-label">全部已读</span>
        </button>
        {scrolled && <BackToTop />}
      </div>
    </section>
  );
}
