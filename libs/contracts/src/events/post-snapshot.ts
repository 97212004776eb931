/**
 * What other services may know of a published note (search indexes it, social keeps recent covers, notify
 * shows it in the activity monitor). `author_id` is the numeric account id, `author_user_id` the product ID.
 */
export interface PostSnapshot {
  id: number;
  author_id: number;
  author_user_id: string;
  title: string;
  /** The content as plain text (markup removed), for indexing and previews. */
  content_text: string;
  category_id: number | null;
  category_title: string | null;
  /** 1 image-and-text, 2 video. */
  type: 1 | 2;
  tags: string[];
  images: string[];
  cover_url: string | null;
  video_url: string | null;
  created_at: string;
}
