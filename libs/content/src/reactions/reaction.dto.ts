import { Type } from 'class-transformer';
import { IsIn, IsInt, Max, Min } from 'class-validator';

export const TARGET_NOTE = 1;
export const TARGET_COMMENT = 2;

/** POST and DELETE /likes (public-side.md §3 "Like"). */
export class LikeDto {
  @Type(() => Number)
  @IsIn([TARGET_NOTE, TARGET_COMMENT], { message: 'target_type 必须是 1（笔记）或 2（评论）' })
  target_type!: 1 | 2;

  @Type(() => Number)
  @IsInt({ message: 'target_id 必须是正整数' })
  @Min(1, { message: 'target_id 必须是正整数' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'target_id 必须是正整数' })
  target_id!: number;
}
