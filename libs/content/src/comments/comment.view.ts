import type { CommentRow } from './comment.repository';

/**
 * A comment as the web app displays it (public-side.md §3 "Comment as displayed"). Fields the spec names twice
 * (avatar or user_avatar, verified or author_verified, likeCount or like_count, isLiked or liked) carry both names.
 */
export interface CommentView {
  id: number;
  post_id: number;
  parent_id: number | null;
  user_id: string;
  user_auto_id: number;
  username: string;
  nickname: string;
  avatar: string;
  user_avatar: string;
  verified: number;
  author_verified: number;
  location: string;
  content: string;
  images: string[];
  created_at: string;
  like_count: number;
  likeCount: number;
  isLiked: boolean;
  liked: boolean;
  reply_count: number;
  replies?: CommentView[];
  isReply: boolean;
  reply_to_comment_id: number | null;
  reply_to_user_id: string | null;
  replyTo: string | null;
  /** Written by the note's author: the web app shows the 作者 badge. */
  isAuthor: boolean;
}

export function toCommentView(row: CommentRow): CommentView {
  const isReply = row.parent_id !== null;
  // A reply straight to the top-level comment names nobody: only replies to replies say whom they answer.
  const answersReply = isReply && row.reply_to_comment_id !== null && row.reply_to_comment_id !== row.parent_id;
  return {
    id: Number(row.id),
    post_id: Number(row.post_id),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    user_id: row.user_id,
    user_auto_id: Number(row.author_id),
    username: row.nickname,
    nickname: row.nickname,
    avatar: row.avatar,
    user_avatar: row.avatar,
    verified: row.verified,
    author_verified: row.verified,
    location: row.location,
    content: row.content,
    images: row.images,
    created_at: row.created_at.toISOString(),
    like_count: row.like_count,
    likeCount: row.like_count,
    isLiked: row.liked,
    liked: row.liked,
    reply_count: row.reply_count,
    isReply,
    reply_to_comment_id: row.reply_to_comment_id === null ? null : Number(row.reply_to_comment_id),
    reply_to_user_id: answersReply ? row.reply_to_user_public_id : null,
    replyTo: answersReply ? row.reply_to_nickname : null,
    isAuthor: String(row.author_id) === String(row.post_author_id),
  };
}
