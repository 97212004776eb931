import { ApiProperty } from '@nestjs/swagger';

/** public-side.md §3 "Notification": the sender as auth last announced them, the note and comment as content did. */
export class NotificationView {
  @ApiProperty() id!: number;
  @ApiProperty({ enum: [1, 2, 3, 4, 5, 6, 7, 8], description: '1 赞了笔记 2 赞了评论 3 收藏笔记 4 评论笔记 5 回复评论 6 关注 7 评论中@ 8 笔记中@' }) type!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: [0, 1], description: '1 已读' }) is_read!: number;
  @ApiProperty() created_at!: string;
  @ApiProperty({ description: '发送者的小石榴号（公开 ID）' }) from_user_id!: string;
  @ApiProperty({ description: '发送者的数字 ID' }) from_user_auto_id!: number;
  @ApiProperty() from_nickname!: string;
  @ApiProperty() from_avatar!: string;
  @ApiProperty({ enum: [0, 1, 2] }) from_verified!: number;
  @ApiProperty({ type: String, nullable: true }) post_image!: string | null;
  @ApiProperty({ description: 'target_type 指向的笔记、评论或用户的 ID' }) target_id!: number;
  @ApiProperty({ enum: [1, 2, 3], description: '1 笔记 2 评论 3 用户' }) target_type!: number;
  @ApiProperty({ type: Number, nullable: true }) post_id!: number | null;
  @ApiProperty({ type: Number, nullable: true }) comment_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) comment_content!: string | null;
  @ApiProperty({ description: '当前用户是否已赞该评论' }) comment_is_liked!: boolean;
  @ApiProperty() comment_like_count!: number;
  @ApiProperty({ type: String, nullable: true, description: '被回复的评论内容' }) parent_comment_content!: string | null;
  @ApiProperty({ type: Number, nullable: true }) post_author_id!: number | null;
  @ApiProperty({ description: '发送者的关注数' }) follow_count!: number;
  @ApiProperty({ description: '发送者的粉丝数' }) fans_count!: number;
}

export class PaginationView {
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
  @ApiProperty() pages!: number;
}

export class NotificationPage {
  @ApiProperty({ type: [NotificationView] }) notifications!: NotificationView[];
  @ApiProperty() pagination!: PaginationView;
}

/** public-side.md §3 "Unread counts"; `count` and `total` are the same sum, under both names clients read. */
export class UnreadCounts {
  @ApiProperty() comments!: number;
  @ApiProperty() likes!: number;
  @ApiProperty() collections!: number;
  @ApiProperty() follows!: number;
  @ApiProperty() total!: number;
  @ApiProperty() count!: number;
}

/** One sender of a group, newest first. */
export class GroupActorView {
  @ApiProperty({ type: String, description: '小石榴号（公开 ID）' }) user_id!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty({ enum: [0, 1, 2] }) verified!: number;
}

/** `?group=target`: the likes or collections of one note (or comment) on one day (Asia/Shanghai). */
export class NotificationGroupView {
  @ApiProperty({ enum: [1, 2, 3], description: '1 赞了笔记 2 赞了评论 3 收藏笔记' }) type!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ description: '日期（YYYY-MM-DD，北京时间）；与 type、target_id 一起指明这一组' }) day!: string;
  @ApiProperty({ description: 'target_type 指向的笔记或评论的 ID' }) target_id!: number;
  @ApiProperty({ enum: [1, 2], description: '1 笔记 2 评论' }) target_type!: number;
  @ApiProperty({ type: [GroupActorView], description: '最新的三位' }) actors!: GroupActorView[];
  @ApiProperty({ description: '这一组的人数' }) actor_count!: number;
  @ApiProperty({ description: '最新一条的时间' }) latest_at!: string;
  @ApiProperty({ enum: [0, 1], description: '1 这一组全部已读' }) is_read!: number;
  @ApiProperty({ type: Number, nullable: true }) post_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) post_title!: string | null;
  @ApiProperty({ type: String, nullable: true }) post_image!: string | null;
  @ApiProperty({ type: Number, nullable: true }) comment_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) comment_content!: string | null;
}

export class NotificationGroupPage {
  @ApiProperty({ type: [NotificationGroupView] }) groups!: NotificationGroupView[];
  @ApiProperty() pagination!: PaginationView;
}
