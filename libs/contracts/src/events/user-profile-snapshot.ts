/**
 * What other services may show of a user (author snapshots, user cards, notification senders).
 * `id` is the numeric account id; `user_id` the public product ID shown in URLs.
 */
export interface UserProfileSnapshot {
  id: number;
  user_id: string;
  nickname: string;
  avatar: string;
  bio: string;
  location: string;
  /** 0 none, 1 official, 2 personal. */
  verified: 0 | 1 | 2;
}
