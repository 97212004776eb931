import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { EmptyState, Skeleton, Spinner } from '../../../components/Feedback';
import { FollowButton } from '../../../components/FollowButton';
import { VerifiedBadge } from '../../../components/Icon';
import { cardHeight, NoteCard } from '../../../components/NoteCard';
import { Waterfall } from '../../../components/Waterfall';
import { useFeed } from '../../../hooks/useFeed';
import { useOpenNote } from '../../../hooks/useOpenNote';
import { ApiError, type PublicUser } from '../../../lib/api/client';
import { followStatusQuery } from '../../../lib/api/people';
import { formatCount } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { userQuery, userStatsQuery } from '../api/users';
import { EditProfile } from './EditProfile';

type Tab = 'posts' | 'collections' | 'likes';
const TAB_LABELS: Record<Tab, string> = { posts: '笔记', collections: '收藏', likes: '点赞' };
const EMPTY_TEXTS: Record<Tab, string> = { posts: '还没有发布任何笔记', collections: '还没有收藏任何笔记', likes: '还没有点赞任何笔记' };
/** The profile's avatar, and its skeleton's while the profile loads. */
const PROFILE_AVATAR_PX = 112;

function Notes({ userId, tab }: { userId: string; tab: Tab }) {
  const feed = useFeed({ kind: tab, userId });
  const openNote = useOpenNote();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  const more = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (feed.isPending)
    return (
      <div className="waterfall skeletons">
        <Skeleton />
      </div>
    );
  if (feed.notes.length === 0) return <EmptyState text={feed.isError ? '加载失败' : EMPTY_TEXTS[tab]} />;
  return <Waterfall items={feed.notes} estimate={cardHeight} render={(note) => <NoteCard note={note} onOpen={openNote} />} onEnd={more} footer={isFetchingNextPage ? <div className="feed-end"><Spinner /></div> : null} />;
}

function Profile({ userId, own }: { userId: string; own: boolean }) {
  const me = useSession((state) => state.user?.user_id ?? null);
  const [tab, setTab] = useState<Tab>('posts');
  const [editing, setEditing] = useState(false);
  const user = useQuery(userQuery(userId));
  const stats = useQuery(userStatsQuery(userId));
  const follow = useQuery({ ...followStatusQuery(userId, me), enabled: !own && me !== null });
  useEffect(() => {
    if (user.data) document.title = `${user.data.nickname} - 拾柳`;
  }, [user.data]);

  if (user.isError) {
    const missing = user.error instanceof ApiError && user.error.status === 404;
    return <EmptyState text={missing ? '用户不存在' : '加载失败'}>{missing && <p className="muted">该用户可能已被删除或不存在</p>}</EmptyState>;
  }
  if (!user.data) return <Skeleton type="user-card" count={1} avatar={PROFILE_AVATAR_PX} />;
  const person: PublicUser = user.data;
  const tabs: Tab[] = own ? ['posts', 'collections', 'likes'] : ['posts', 'collections'];
  const personal = [person.gender && person.gender !== '保密' ? person.gender : null, person.zodiac_sign, person.mbti, person.education, person.major, ...(person.interests ?? [])].filter(Boolean) as string[];

  return (
    <section className="profile">
      <header className="profile-head">
        <Avatar src={person.avatar} size={PROFILE_AVATAR_PX} alt={person.nickname} />
        <div className="profile-info">
          <h1 className="profile-name">
            {person.nickname}
            <VerifiedBadge level={person.verified} size={18} />
          </h1>
          <p className="profile-ids">
            <span>小石榴号：{person.user_id}</span>
            <span>IP属地：{person.location || '未知'}</span>
          </p>
          <p className="profile-bio">{person.bio || '用户没有任何简介'}</p>
          {personal.length > 0 && (
            <div className="profile-tags">
              {personal.map((tag) => (
                <span key={tag} className="chip">
                  {tag}
                </span>
              ))}
            </div>
          )}
          <div className="profile-counts">
            {own ? (
              <Link to="/follow/following">
                <b>{formatCount(stats.data?.follow_count)}</b> 关注
              </Link>
            ) : (
              <span>
                <b>{formatCount(stats.data?.follow_count)}</b> 关注
              </span>
            )}
            {own ? (
              <Link to="/follow/followers">
                <b>{formatCount(stats.data?.fans_count)}</b> 粉丝
              </Link>
            ) : (
              <span>
                <b>{formatCount(stats.data?.fans_count)}</b> 粉丝
              </span>
            )}
            <span>
              <b>{formatCount(stats.data?.likes_and_collects)}</b> 获赞与收藏
            </span>
          </div>
        </div>
        <div className="profile-actions">
          {own ? (
            <button type="button" className="button ghost" onClick={() => setEditing(true)}>
              编辑资料
            </button>
          ) : (
            <FollowButton userId={person.user_id} initial={follow.data?.buttonType ?? 'follow'} />
          )}
        </div>
      </header>
      <div className="tabs" role="tablist">
        {tabs.map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className={`tab ${tab === name ? 'active' : ''}`} onClick={() => setTab(name)}>
            {TAB_LABELS[name]}
          </button>
        ))}
      </div>
      <Notes key={tab} userId={person.user_id} tab={tab} />
      {editing && <EditProfile user={person} onClose={() => setEditing(false)} />}
    </section>
  );
}

/** /user (own profile, or a login prompt) and /user/{userId} (another's; one's own redirects to /user). */
export default function ProfilePage() {
  const { userId } = useParams();
  const me = useSession((state) => state.user?.user_id ?? null);
  if (userId && userId === me) return <Navigate to="/user" replace />;
  if (userId) return <Profile key={userId} userId={userId} own={false} />;
  if (!me)
    return (
      <EmptyState text="登录后查看你的主页、笔记与收藏">
        <button type="button" className="button primary" onClick={() => useSession.getState().openAuth()}>
          登录
        </button>
      </EmptyState>
    );
  return <Profile key={me} userId={me} own />;
}
