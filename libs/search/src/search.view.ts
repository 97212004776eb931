import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SearchPagination {
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() total!: number;
  @ApiProperty() pages!: number;
}

export class SearchTagRef {
  @ApiProperty() name!: string;
}

export class SearchVideo {
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) cover_url!: string | null;
}

/**
 * A note found, with the feed card's fields (public-side.md §3 "Note as read", both spellings where the spec
 * gives two) and the viewer's own like and collection; `title_highlight` is the title with each matched word in
 * `<em>`, everything else escaped, so it is safe to render as markup.
 */
export class SearchPostView {
  @ApiProperty() id!: number;
  @ApiProperty() title!: string;
  @ApiProperty() title_highlight!: string;
  @ApiProperty({ description: '正文的纯文本摘要' }) content!: string;
  @ApiProperty({ enum: [1, 2] }) type!: number;
  @ApiProperty({ type: Number, nullable: true }) category_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) category_title!: string | null;
  @ApiProperty({ type: [String] }) images!: string[];
  @ApiProperty({ type: String, nullable: true }) image!: string | null;
  @ApiProperty({ type: String, nullable: true }) cover_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) video_url!: string | null;
  @ApiProperty({ type: [SearchVideo] }) videos!: SearchVideo[];
  @ApiProperty() user_id!: string;
  @ApiProperty() author_account!: string;
  @ApiProperty() author_auto_id!: number;
  @ApiProperty() author!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() user_avatar!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty() verified!: number;
  @ApiProperty() author_verified!: number;
  @ApiProperty() location!: string;
  @ApiProperty() like_count!: number;
  @ApiProperty() likeCount!: number;
  @ApiProperty() collect_count!: number;
  @ApiProperty() collectCount!: number;
  @ApiProperty() comment_count!: number;
  @ApiProperty() commentCount!: number;
  @ApiProperty() liked!: boolean;
  @ApiProperty() collected!: boolean;
  @ApiProperty({ type: [SearchTagRef] }) tags!: SearchTagRef[];
  @ApiProperty() created_at!: string;
}

/** A user found, with the viewer's follow state (public-side.md §3 "Follow state per user", `followed` or `isFollowing`) and their note count. */
export class SearchUserView {
  @ApiProperty() id!: number;
  @ApiProperty() user_id!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty() avatar!: string;
  @ApiProperty() bio!: string;
  @ApiProperty() location!: string;
  @ApiProperty() verified!: number;
  @ApiProperty() fans_count!: number;
  @ApiProperty({ description: '可被搜到的笔记数' }) post_count!: number;
  @ApiProperty() followed!: boolean;
  @ApiProperty() isFollowing!: boolean;
  @ApiProperty() isMutual!: boolean;
  @ApiProperty({ enum: ['follow', 'unfollow', 'mutual', 'back'] }) buttonType!: 'follow' | 'unfollow' | 'mutual' | 'back';
}

export class SearchPostPage {
  @ApiProperty({ type: [SearchPostView] }) data!: SearchPostView[];
  @ApiProperty() pagination!: SearchPagination;
}

export class SearchUserPage {
  @ApiProperty({ type: [SearchUserView] }) data!: SearchUserView[];
  @ApiProperty() pagination!: SearchPagination;
}

export class SearchTagStat {
  @ApiProperty({ description: '标签名（点击后按此标签搜索）' }) id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ description: '匹配笔记中带此标签的数量' }) count!: number;
}

/** GET /search (public-side.md §7): `posts.data`, `posts.pagination`, `users` paged the same way (DESIGN.md §4), `tagStats`. */
export class SearchResult {
  @ApiProperty() posts!: SearchPostPage;
  @ApiProperty({ description: '用户结果，与 posts 一样按 page、limit 分页' }) users!: SearchUserPage;
  @ApiProperty({ type: [SearchTagStat] }) tagStats!: SearchTagStat[];
}

export class SuggestionView {
  @ApiProperty({ enum: ['tag', 'user', 'post'] }) kind!: 'tag' | 'user' | 'post';
  @ApiProperty() text!: string;
  @ApiPropertyOptional({ description: '笔记 id 或用户的 user_id；标签没有' }) target?: string;
}

export class SuggestionList {
  @ApiProperty({ type: [SuggestionView] }) suggestions!: SuggestionView[];
}
