import type { SuggestionRow } from './follow-graph.repository';

/** A student suggested to follow; `buttonType` is the follow button's state for the viewer (回关 when they follow the viewer). */
export interface SuggestedUser {
  id: number;
  user_id: string;
  nickname: string;
  avatar: string;
  verified: number;
  fans_count: number;
  fansCount: number;
  buttonType: 'follow' | 'back';
}

export function toSuggestedUser(row: SuggestionRow): SuggestedUser {
  return {
    id: Number(row.id),
    user_id: row.user_id,
    nickname: row.nickname,
    avatar: row.avatar,
    verified: row.verified,
    fans_count: row.fans_count,
    fansCount: row.fans_count,
    buttonType: row.follows_viewer ? 'back' : 'follow',
  };
}

export interface Suggestions {
  users: SuggestedUser[];
  /** How many people the viewer follows. */
  follow_count: number;
}
