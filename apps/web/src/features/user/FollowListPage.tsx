import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { EmptyState, Spinner } from '../../components/Feedback';
import { FollowButton } from '../../components/FollowButton';
import { api, call, type FollowListItem } from '../../lib/api/client';
import { formatCount } from '../../lib/format';
import { useSession } from '../../lib/session';

type ListType = 'mutual' | 'following' | 'followers';
const TABS: [ListType, string][] = [
  ['mutual', '互相关注'],
  ['following', '关注'],
  ['followers', '粉丝'],
];

async function load(type: ListType, userId: string): Promise<FollowListItem[]> {
  const params = { params: { path: { user_id: userId }, query: { page: 1, limit: 100 } } };
  if (type === 'mutual') return (await call(api.GET('/api/users/{user_id}/mutual-follows', params))).mutualFollows;
  if (type === 'following') return (await call(api.GET('/api/users/{user_id}/following', params))).following;
  return (await call(api.GET('/api/users/{user_id}/followers', params))).followers;
}

/** /follow/{type}: one's mutual follows, following and followers; a user opens in a new tab. */
export default function FollowListPage({ type }: { type: ListType }) {
  const me = useSession((state) => state.user!.user_id);
  const list = useQuery({ queryKey: ['people', 'follows', type, me], queryFn: () => load(type, me) });
  return (
    <section className="follow-list">
      <div className="tabs" role="tablist">
        {TABS.map(([name, label]) => (
          <Link key={name} to={`/follow/${name}`} replace role="tab" aria-selected={type === name} className={`tab ${type === name ? 'active' : ''}`}>
            {label}
          </Link>
        ))}
      </div>
      {list.isPending ? (
        <div className="page-loading">
          <Spinner />
        </div>
      ) : !list.data || list.data.length === 0 ? (
        <EmptyState text="暂无用户数据" />
      ) : (
        <ul className="people">
          {list.data.map((person) => (
            <li key={person.user_id} className="person">
              <a href={`/user/${person.user_id}`} target="_blank" rel="noreferrer" className="person-link">
                <Avatar src={person.avatar} size={48} />
                <div>
                  <b>{person.nickname}</b>
                  <p className="muted">
                    粉丝 {formatCount(person.fans_count)} · 笔记 {formatCount(person.post_count)}
                  </p>
                  {person.bio && <p className="person-bio">{person.bio}</p>}
                </div>
              </a>
              <FollowButton userId={person.user_id} initial={person.buttonType} size="small" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
