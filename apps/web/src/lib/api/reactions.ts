import type { ButtonType } from './types';
import { api, call } from './client';

/** What a like is on: 1 a note, 2 a comment. */
export interface LikeTarget {
  target_type: 1 | 2;
  target_id: number;
}

/** Likes or unlikes a note or a comment; answers the server's state and count. */
export async function sendLike(target: LikeTarget, liked: boolean): Promise<{ active: boolean; count: number }> {
  const body = { target_type: target.target_type, target_id: target.target_id };
  const answer = await call(liked ? api.POST('/api/likes', { body }) : api.DELETE('/api/likes', { body }));
  return { active: answer.liked, count: answer.likeCount };
}

/** Collects or uncollects a note; answers the server's state and count. */
export async function sendCollect(noteId: number, collected: boolean): Promise<{ active: boolean; count: number }> {
  const path = { params: { path: { id: noteId } } };
  const answer = await call(collected ? api.POST('/api/posts/{id}/collect', path) : api.DELETE('/api/posts/{id}/collect', path));
  return { active: answer.collected, count: answer.collectCount };
}

/** Follows or unfollows a user; answers the follow button's new state when the server gives one. */
export async function sendFollow(userId: string, follow: boolean): Promise<ButtonType | null> {
  const path = { params: { path: { user_id: userId } } };
  const answer = await call(follow ? api.POST('/api/users/{user_id}/follow', path) : api.DELETE('/api/users/{user_id}/follow', path));
  return answer.buttonType;
}
