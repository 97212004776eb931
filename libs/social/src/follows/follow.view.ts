import { ApiProperty } from '@nestjs/swagger';
import { FollowState } from './follow-state';

/** public-side.md §3 "Follow-list item"; the follow fields are relative to the viewer, not to the listed user. */
export class FollowListItem {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty() bio!: string;
  @ApiProperty() follow_count!: number;
  @ApiProperty() fans_count!: number;
  @ApiProperty() post_count!: number;
  @ApiProperty() followed_at!: string;
  @ApiProperty() isFollowing!: boolean;
  @ApiProperty() isMutual!: boolean;
  @ApiProperty({ enum: ['follow', 'unfollow', 'mutual', 'back'] }) buttonType!: FollowState['buttonType'];
}

export class PaginationView {
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
  @ApiProperty() pages!: number;
}

export class FollowingPage {
  @ApiProperty({ type: [FollowListItem] }) following!: FollowListItem[];
  @ApiProperty() pagination!: PaginationView;
}

export class FollowersPage {
  @ApiProperty({ type: [FollowListItem] }) followers!: FollowListItem[];
  @ApiProperty() pagination!: PaginationView;
}

export class MutualFollowsPage {
  @ApiProperty({ type: [FollowListItem] }) mutualFollows!: FollowListItem[];
  @ApiProperty() pagination!: PaginationView;
}

export class UserFollowState extends FollowState {
  @ApiProperty() user_id!: string;
}

export class FollowStates {
  @ApiProperty({ type: [UserFollowState], description: '按请求顺序；不存在的用户按未关注作答' }) statuses!: UserFollowState[];
}
