import { ApiProperty } from '@nestjs/swagger';

/** admin-and-startup.md §3 "Activity item". */
export class ActivityItem {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: ['user_register', 'post_publish', 'comment_publish'] }) type!: string;
  @ApiProperty({ description: '用户的小石榴号（公开 ID）' }) user_id!: string;
  @ApiProperty({ description: '用户的数字 ID' }) user_auto_id!: number;
  @ApiProperty({ description: '注册：用户的数字 ID；发布笔记：笔记 ID；发表评论：评论 ID' }) target_id!: number;
  @ApiProperty({ type: Number, nullable: true, description: '笔记与评论所在笔记的 ID' }) post_id!: number | null;
  @ApiProperty() avatar!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() description!: string;
  @ApiProperty() content!: string;
  @ApiProperty() created_at!: string;
}
