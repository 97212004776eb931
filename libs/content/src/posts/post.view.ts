import { cardImages } from '@shiliu/contracts';
import type { PostRow } from './post.repository';

/**
 * A note as the web app reads it (public-side.md §3 "Note as read"). The spec names several fields twice
 * (user_avatar or avatar, like_count or likeCount, ...): both spellings are given, so either reading works.
 */
export interface PostView {
  id: number;
  title: string;
  /** The rich text in the detail, a plain-text excerpt in lists. */
  content: string;
  type: number;
  is_draft: 0 | 1;
  category_id: number | null;
  category: string | null;
  category_title: string | null;
  images: string[];
  image: string | null;
  cover_url: string | null;
  video_url: string | null;
  video: { url: string; coverUrl: string | null; name: string | null; size: number | null } | null;
  videos: { url: string; cover_url: string | null }[];
  aspectRatio: number | null;
  /** The first image's blurred preview and feed-card version, when media has told us them. */
  blurhash: string | null;
  thumbnail_url: string | null;
  user_id: string;
  author_account: string;
  author_auto_id: number;
  author: string;
  nickname: string;
  user_avatar: string;
  avatar: string;
  verified: number;
  author_verified: number;
  location: string;
  view_count: number;
  like_count: number;
  likeCount: number;
  collect_count: number;
  collectCount: number;
  comment_count: number;
  commentCount: number;
  liked: boolean;
  collected: boolean;
  tags: { id: number; name: string }[];
  created_at: string;
  updated_at: string;
}

export function toPostView(row: PostRow): PostView {
  const stored = row.images.map((image) => image.url);
  const video = row.video;
  const cover = row.cover_url ?? stored[0] ?? null;
  const images = cardImages(row.type, stored, cover);
  const first = row.images[0];
  const aspectRatio = first?.width && first?.height ? Math.round((first.width / first.height) * 10_000) / 10_000 : null;
  return {
    id: Number(row.id),
    title: row.title,
    content: row.content,
    type: row.type,
    is_draft: row.is_draft ? 1 : 0,
    category_id: row.category_id,
    category: row.category_name,
    category_title: row.category_title,
    images,
    image: cover,
    cover_url: cover,
    video_url: video?.url ?? null,
    video: video ? { url: video.url, coverUrl: video.cover_url, name: video.name, size: video.size } : null,
    videos: video ? [{ url: video.url, cover_url: video.cover_url }] : [],
    aspectRatio,
    blurhash: first?.blurhash ?? null,
    thumbnail_url: first?.thumbnail_url ?? null,
    user_id: row.author_user_id,
    author_account: row.author_user_id,
    author_auto_id: Number(row.author_id),
    author: row.nickname,
    nickname: row.nickname,
    user_avatar: row.avatar,
    avatar: row.avatar,
    verified: row.verified,
    author_verified: row.verified,
    location: row.location,
    view_count: row.view_count,
    like_count: row.like_count,
    likeCount: row.like_count,
    collect_count: row.collect_count,
    collectCount: row.collect_count,
    comment_count: row.comment_count,
    commentCount: row.comment_count,
    liked: row.liked,
    collected: row.collected,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
