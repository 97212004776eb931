import { ApiProperty } from '@nestjs/swagger';

export type ButtonType = 'follow' | 'unfollow' | 'mutual' | 'back';

/** The follow button of public-side.md §4, seen by the viewer: whether each follows the other decides it. */
export function buttonType(viewerFollows: boolean, followsViewer: boolean): ButtonType {
  if (viewerFollows) return followsViewer ? 'mutual' : 'unfollow';
  return followsViewer ? 'back' : 'follow';
}

/** public-side.md §3 "Follow state per user". */
export class FollowState {
  @ApiProperty({ description: '当前用户是否已关注该用户' })
  followed!: boolean;

  @ApiProperty({ description: '是否互相关注' })
  isMutual!: boolean;

  @ApiProperty({ enum: ['follow', 'unfollow', 'mutual', 'back'], description: '关注按钮：关注、已关注、互相关注、回关' })
  buttonType!: ButtonType;
}

export function followState(viewerFollows: boolean, followsViewer: boolean): FollowState {
  return { followed: viewerFollows, isMutual: viewerFollows && followsViewer, buttonType: buttonType(viewerFollows, followsViewer) };
}
