import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Avatar } from '../../../components/Avatar';
import { EmptyState, Skeleton } from '../../../components/Feedback';
import { FollowButton } from '../../../components/FollowButton';
import { formatCount } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { followListQuery, type FollowListType } from '../api/users';

const TABS: [FollowListType, string][] = [
  ['mutual', '互相关注'],
  ['following', '关注'],
  ['followers', '粉丝'],
];

/** /follow/{type}: one's mutual follows, following and followers; a user opens in a new tab. */
export default function FollowListPage({ type }: { type: FollowListType }) {
  const me = useSession((state) => state.user!.user_id);
  const list = useQuery(followListQuery(type, me));
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
        <ul className="people">
          <Skeleton type="user-item" />
        </ul>
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
