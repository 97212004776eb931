import type { UserProfileSnapshot } from '@shiliu/contracts';
import type { UserRow } from './user.repository';

/** What anyone may see of a user: never the password hash, never verification data. */
export interface PublicUser extends UserProfileSnapshot {
  gender: string | null;
  zodiac_sign: string | null;
  mbti: string | null;
  education: string | null;
  major: string | null;
  interests: string[];
  created_at: string;
}

export function publicUser(user: UserRow): PublicUser {
  return {
    ...profileSnapshot(user),
    gender: user.gender,
    zodiac_sign: user.zodiac_sign,
    mbti: user.mbti,
    education: user.education,
    major: user.major,
    interests: user.interests,
    created_at: user.created_at.toISOString(),
  };
}

/** The fields other services keep of a user (user.registered / user.updated). */
export function profileSnapshot(user: UserRow): UserProfileSnapshot {
  return {
    id: Number(user.id),
    user_id: user.user_id,
    nickname: user.nickname,
    avatar: user.avatar,
    bio: user.bio,
    location: user.location,
    verified: user.verified,
  };
}
