import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLike } from '../hooks/useLike';
import { noteLikeView } from '../lib/api/notes';
import { formatCount } from '../lib/format';
import { toast } from '../lib/toast';
import { Icon } from './Icon';

/**
 * The heart on a feed card: likes and unlikes the note in place (optimistic, rolled back on failure, the login
 * dialog for visitors), outside the card's link so that it never opens the note.
 */
export function CardLike({ note }: { note: { id: number; liked: boolean; likeCount?: number; like_count: number } }) {
  const client = useQueryClient();
  const [bump, setBump] = useState(false);
  const like = useLike({ view: noteLikeView(client), targetOf: (id: number) => ({ target_type: 1, target_id: id }), onFailed: () => toast.error('操作失败，请重试') });
  const count = note.likeCount ?? note.like_count;
  return (
    <button
      type="button"
      className={`card-likes ${note.liked ? 'liked' : ''} ${bump ? 'bump' : ''}`}
      aria-pressed={note.liked}
      aria-label={`${note.liked ? '取消点赞' : '点赞'}，${count} 个赞`}
      onClick={() => setBump(like(note.id) && !note.liked)}
      onAnimationEnd={() => setBump(false)}
    >
      <Icon name="heart" size={15} filled={note.liked} />
      {formatCount(count, true)}
    </button>
  );
}
