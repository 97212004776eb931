/**
 * One user started or stopped following another. Ids are numeric account ids, `*_user_id` the product IDs; the
 * counts are both users' counters after the change, so a notification can show them without asking social.
 */
export interface FollowChangePayload {
  follower_id: number;
  follower_user_id: string;
  following_id: number;
  following_user_id: string;
  /** How many the follower follows now. */
  follower_follow_count: number;
  /** How many fans the followed user has now. */
  following_fans_count: number;
}
