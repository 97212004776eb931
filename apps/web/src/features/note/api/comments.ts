import { api, call, type NoteComment } from '../../../lib/api/client';

/** Comments per page (public-side.md §9). */
export const COMMENT_LIMIT = 5;

export type Sort = 'desc' | 'asc';

/** One page of a note's top-level comments, each with its first replies. */
export async function fetchComments(postId: number, page: number, sort: Sort) {
  const answer = await call(api.GET('/api/posts/{id}/comments', { params: { path: { id: postId }, query: { page, limit: COMMENT_LIMIT, sort } } }));
  return { comments: answer.comments, total: answer.pagination.total, hasMore: page < answer.pagination.pages };
}

/** Every reply to a comment. */
export async function fetchReplies(commentId: number): Promise<NoteComment[]> {
  return (await call(api.GET('/api/comments/{id}/replies', { params: { path: { id: commentId }, query: { page: 1, limit: 100 } } }))).comments;
}

/** Sends a comment on a note, or a reply when `parentId` is given. */
export function sendComment(postId: number, content: string, parentId: number | null): Promise<NoteComment> {
  return call(api.POST('/api/comments', { body: { post_id: postId, content, ...(parentId ? { parent_id: parentId } : {}) } }));
}

/** Deletes a comment (and its replies); answers how many went. */
export async function deleteComment(commentId: number): Promise<number> {
  return (await call(api.DELETE('/api/comments/{id}', { params: { path: { id: commentId } } }))).deletedCount;
}
