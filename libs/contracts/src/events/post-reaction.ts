/** A user's like or collection of a note; the count is the note's count after the change. */
export interface PostReactionPayload {
  post_id: number;
  post_author_id: number;
  /** The numeric id of the user who liked or collected. */
  user_id: number;
  count: number;
}

/** A user's like of a comment; the count is the comment's like count after the change. */
export interface CommentReactionPayload {
  comment_id: number;
  post_id: number;
  comment_author_id: number;
  user_id: number;
  count: number;
}
