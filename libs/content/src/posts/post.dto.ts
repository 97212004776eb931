import { PickType } from '@nestjs/swagger';
import { PaginationQuery } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

/** 0/1, true/false or their string forms, as forms and query strings send them. */
export const toFlag = ({ value }: { value: unknown }): unknown => {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false' || value === '' || value === null) return false;
  return value;
};

/** Category ids are PostgreSQL `int`. */
const CATEGORY_ID_MAX = 2_147_483_647;

const toOptionalNumber = ({ value }: { value: unknown }): unknown => (value === '' || value === null || value === undefined ? undefined : typeof value === 'string' ? Number(value) : value);

export class VideoDto {
  @IsString({ message: '请选择视频文件' })
  @MaxLength(600, { message: '视频地址无效' })
  url!: string;

  @IsOptional()
  @IsString({ message: '封面地址无效' })
  coverUrl?: string | null;

  @IsOptional()
  @IsString({ message: '封面地址无效' })
  cover_url?: string | null;

  @IsOptional()
  @IsString({ message: '视频名称格式不正确' })
  name?: string | null;

  @IsOptional()
  @IsNumber({}, { message: '视频大小格式不正确' })
  size?: number | null;
}

/**
 * The note form (public-side.md §3 "Note form"). Limits that depend on the whole form (what a draft needs,
 * images by type, lengths of text without markup) are checked by the service after sanitising.
 */
export class PostFormDto {
  @IsOptional()
  @IsString({ message: '标题格式不正确' })
  @MaxLength(2000, { message: '标题不能超过100个字符' })
  title?: string;

  @IsOptional()
  @IsString({ message: '内容格式不正确' })
  @MaxLength(50_000, { message: '内容不能超过2000个字符' })
  content?: string;

  @IsOptional()
  @IsArray({ message: '图片格式不正确' })
  @ArrayMaxSize(9, { message: '最多只能上传9张图片' })
  images?: unknown[];

  @IsOptional()
  @IsObject({ message: '视频格式不正确' })
  @ValidateNested()
  @Type(() => VideoDto)
  video?: VideoDto | null;

  @IsOptional()
  @IsArray({ message: '标签格式不正确' })
  @ArrayMaxSize(50, { message: '最多只能选择10个标签' })
  @IsString({ each: true, message: '标签格式不正确' })
  tags?: string[];

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt({ message: '请选择分类' })
  @Min(1, { message: '分类不存在' })
  @Max(CATEGORY_ID_MAX, { message: '分类不存在' })
  category_id?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsIn([1, 2], { message: '笔记类型不正确' })
  type?: 1 | 2;

  @IsOptional()
  @Transform(toFlag)
  @IsIn([true, false], { message: 'is_draft 必须是 0 或 1' })
  is_draft?: boolean;
}

export const FEED_SORTS = ['hot', 'popular', 'created_at', 'newest', 'latest', 'oldest', 'like_count', 'likes', 'view_count', 'views'] as const;
export type FeedSort = (typeof FEED_SORTS)[number];

/** GET /posts and the profile lists (public-side.md §7). Empty values are dropped by the client. */
export class PostListQuery extends PaginationQuery {
  @IsOptional()
  @IsString({ message: '分类格式不正确' })
  @MaxLength(50, { message: '分类格式不正确' })
  category?: string;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt({ message: '分类格式不正确' })
  @Min(1, { message: '分类格式不正确' })
  @Max(CATEGORY_ID_MAX, { message: '分类格式不正确' })
  category_id?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsIn([1, 2], { message: '笔记类型不正确' })
  type?: 1 | 2;

  @IsOptional()
  @IsString({ message: '用户ID格式不正确' })
  @MaxLength(32, { message: '用户ID格式不正确' })
  user_id?: string;

  @IsOptional()
  @Transform(toFlag)
  @IsIn([true, false], { message: 'is_draft 必须是 0 或 1' })
  is_draft?: boolean;

  @IsOptional()
  @IsString({ message: '关键词格式不正确' })
  @MaxLength(100, { message: '关键词不能超过100个字符' })
  keyword?: string;

  @IsOptional()
  @IsIn(FEED_SORTS, { message: '排序方式不正确' })
  sort?: FeedSort;

  /** The `pagination.snapshot` of the first page, sent back with the next pages (ISO time or epoch milliseconds). */
  @IsOptional()
  @IsString({ message: 'snapshot 格式不正确' })
  @MaxLength(40, { message: 'snapshot 格式不正确' })
  snapshot?: string;
}

/** A profile's notes tab: the feed's paging, channel, keyword and order, for one user named by the path. */
export class UserPostListQuery extends PickType(PostListQuery, ['page', 'limit', 'category', 'keyword', 'sort', 'snapshot'] as const) {}

export class PostDetailQuery {
  @IsOptional()
  @Transform(toFlag)
  @IsIn([true, false], { message: 'skipViewCount 必须是 true 或 false' })
  skipViewCount?: boolean;
}

/** Lists that take nothing but the page (a user's likes and collections). */
export class PagingOnlyQuery extends PaginationQuery {}


/** How many related notes a note's page shows by default, and at most. */
export const RELATED_DEFAULT = 10;
export const RELATED_MAX = 20;

/** GET /posts/{id}/related. */
export class RelatedPostsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit 必须是 1-${RELATED_MAX} 的整数` })
  @Min(1, { message: `limit 必须是 1-${RELATED_MAX} 的整数` })
  @Max(RELATED_MAX, { message: `limit 必须是 1-${RELATED_MAX} 的整数` })
  limit: number = RELATED_DEFAULT;
}
