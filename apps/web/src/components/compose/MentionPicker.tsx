import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Avatar } from '../Avatar';
import { Spinner } from '../Feedback';
import { Icon, VerifiedBadge } from '../Icon';
import { Modal } from '../Modal';
import { api, call } from '../../lib/api/client';
import { peopleKeys } from '../../lib/api/people';
import { useSession } from '../../lib/session';

/** Mention search: debounce, list limit and the shortest spinner, so results do not flicker (public-side.md §9). */
const DEBOUNCE_MS = 300;
const LIMIT = 50;
const MIN_SPINNER_MS = 500;

export interface MentionUser {
  user_id: string;
  nickname: string;
  avatar?: string | null;
  verified?: number | null;
}

async function atLeast<T>(work: Promise<T>, ms: number): Promise<T> {
  const [result] = await Promise.all([work, new Promise((resolve) => setTimeout(resolve, ms))]);
  return result;
}

/**
 * The @ picker (public-side.md §2): the people one follows first (with refresh), a debounced search over every user
 * with the followed ones on top; a failure empties the list.
 */
export function MentionPicker({ onPick, onClose }: { onPick: (user: MentionUser) => void; onClose: () => void }) {
  const me = useSession((state) => state.user?.user_id);
  const [words, setWords] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(words.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [words]);

  const friends = useQuery({
    queryKey: peopleKeys.mentionFriends(me),
    enabled: Boolean(me),
    queryFn: () => atLeast(call(api.GET('/api/users/{user_id}/following', { params: { path: { user_id: me! }, query: { page: 1, limit: LIMIT } } })), MIN_SPINNER_MS).then((answer) => answer.following as MentionUser[]),
  });
  const found = useQuery({
    queryKey: peopleKeys.mentionSearch(keyword),
    enabled: keyword.length > 0,
    queryFn: () => atLeast(call(api.GET('/api/users/search', { params: { query: { keyword, limit: LIMIT } } })), MIN_SPINNER_MS).then((answer) => answer.users as MentionUser[]),
  });

  const followed = new Set((friends.data ?? []).map((user) => user.user_id));
  const searching = keyword.length > 0;
  const source = searching ? found : friends;
  const list = searching ? [...(found.data ?? [])].filter((user) => user.user_id !== me).sort((a, b) => Number(followed.has(b.user_id)) - Number(followed.has(a.user_id))) : (friends.data ?? []);

  return (
    <Modal title="选择要@的人" onClose={onClose} width={400} className="mention-modal">
      <div className="mention-search">
        <Icon name="search" size={16} />
        <input value={words} onChange={(event) => setWords(event.target.value)} placeholder="搜索昵称或小石榴号" aria-label="搜索用户" autoFocus />
        <button type="button" className="icon-button" aria-label="刷新" title="刷新" onClick={() => void (searching ? found.refetch() : friends.refetch())}>
          <Icon name="refresh" size={16} className={source.isFetching ? 'spin' : ''} />
        </button>
      </div>
      <h4 className="mention-heading">{searching ? '搜索结果' : '我关注的人'}</h4>
      <div className="mention-list">
        {source.isFetching && list.length === 0 ? (
          <div className="mention-loading">
            <Spinner />
          </div>
        ) : list.length === 0 || source.isError ? (
          <p className="mention-empty">{searching ? '未找到相关用户' : '暂无好友'}</p>
        ) : (
          list.map((user) => (
            <button key={user.user_id} type="button" className="mention-user" onClick={() => onPick(user)}>
              <Avatar src={user.avatar} size={36} />
              <span className="mention-name">
                <b>{user.nickname}</b>
                <VerifiedBadge level={user.verified} size={13} />
              </span>
              <span className="mention-id">
                {followed.has(user.user_id) && searching && <em>已关注</em>}@{user.user_id}
              </span>
            </button>
          ))
        )}
      </div>
    </Modal>
  );
}
