import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Avatar } from '../../../components/Avatar';
import { EmptyState, Skeleton } from '../../../components/Feedback';
import { FollowButton } from '../../../components/FollowButton';
import { exploreFeedKey } from '../../../hooks/useFeed';
import { formatCount } from '../../../lib/format';
import { suggestionsQuery } from '../api/suggestions';

/** The 关注 feed with nothing in it: why, and people worth following (the most followed in the viewer's interests). */
export function FollowingEmpty() {
  const suggestions = useQuery(suggestionsQuery());
  const followsSomeone = (suggestions.data?.follow_count ?? 0) > 0;
  const people = suggestions.data?.users ?? [];
  const client = useQueryClient();
  // A follow made here refreshes the suggestions (every follow refreshes people); the feed is asked again with them.
  useEffect(() => {
    if (followsSomeone) void client.invalidateQueries({ queryKey: exploreFeedKey });
  }, [followsSomeone, client]);
  if (suggestions.isPending) {
    return (
      <ul className="people following-empty">
        <Skeleton type="user-item" count={3} />
      </ul>
    );
  }
  return (
    <div className="following-empty">
      <EmptyState text={followsSomeone ? '关注的人还没有发布笔记' : '你还没有关注任何人，去认识一些同学吧'} />
      {people.length > 0 && (
        <section className="suggestions" aria-labelledby="suggestions-title">
          <h2 id="suggestions-title">{followsSomeone ? '还可以关注这些同学' : '推荐关注'}</h2>
          <ul className="people">
            {people.map((person) => (
              <li key={person.user_id} className="person">
                <a href={`/user/${person.user_id}`} className="person-link">
                  <Avatar src={person.avatar} size={44} />
                  <div>
                    <b>{person.nickname}</b>
                    <p className="muted">粉丝 {formatCount(person.fans_count)}</p>
                  </div>
                </a>
                <FollowButton userId={person.user_id} initial={person.buttonType} size="small" />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
