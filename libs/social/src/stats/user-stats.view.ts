import { ApiProperty } from '@nestjs/swagger';
import { FollowState } from '../follows/follow-state';

/** public-side.md §3 "User stats". */
export class UserStatsView {
  @ApiProperty() follow_count!: number;
  @ApiProperty() fans_count!: number;
  @ApiProperty() post_count!: number;
  @ApiProperty({ description: '笔记获得的点赞数' }) like_count!: number;
  @ApiProperty({ description: '笔记获得的收藏数' }) collect_count!: number;
  @ApiProperty() likes_and_collects!: number;
}

/** admin-and-startup.md §3 "Hover user card". */
export class UserCardView extends FollowState {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty({ description: '0 未认证，1 官方，2 个人' }) verified!: number;
  @ApiProperty() bio!: string;
  @ApiProperty() followCount!: number;
  @ApiProperty() fansCount!: number;
  @ApiProperty() likeAndCollectCount!: number;
  @ApiProperty() isFollowing!: boolean;
  @ApiProperty({ type: [String], description: '最新三篇笔记的封面' }) images!: string[];
}
