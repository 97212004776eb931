import { PaginationQuery } from '@shiliu/platform';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const toOptionalId = ({ value }: { value: unknown }): unknown => (value === '' || value === null || value === undefined || value === 0 || value === '0' ? undefined : typeof value === 'string' ? Number(value) : value);

export class CreateCommentDto {
  @Type(() => Number)
  @IsInt({ message: '笔记ID无效' })
  @Min(1, { message: '笔记ID无效' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '笔记ID无效' })
  post_id!: number;

  @IsOptional()
  @IsString({ message: '评论内容格式不正确' })
  @MaxLength(20_000, { message: '评论内容不能超过1000个字符' })
  content?: string;

  /** null (or absent) for a top-level comment; a comment or reply id to answer it. */
  @IsOptional()
  @Transform(toOptionalId)
  @IsInt({ message: '回复的评论ID无效' })
  @Min(1, { message: '回复的评论ID无效' })
  @Max(Number.MAX_SAFE_INTEGER, { message: '回复的评论ID无效' })
  parent_id?: number;
}

/** Five top-level comments a page by default (public-side.md §9), newest first unless asked otherwise. */
export class CommentListQuery extends PaginationQuery {
  override limit: number = 5;

  @IsOptional()
  @IsIn(['desc', 'asc'], { message: 'sort 必须是 desc 或 asc' })
  sort: 'desc' | 'asc' = 'desc';
}

export class ReplyListQuery extends PaginationQuery {
  override limit: number = 10;
}
