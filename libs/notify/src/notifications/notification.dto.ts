import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, Min } from 'class-validator';
import { PaginationQuery } from '@shiliu/platform';
import { type Tab, tabs } from './notification-type';

/** Which tab to mark read; all of them when absent. */
export class ReadAllQuery {
  @IsOptional()
  @IsIn(tabs, { message: `type 必须是 ${tabs.join('、')} 之一` })
  type?: Tab;
}

/** The likes and collections tabs: one notification per item, or with `group=target` one item per target and day. */
export class GroupableListQuery extends PaginationQuery {
  @IsOptional()
  @IsIn(['target'], { message: 'group 只能是 target' })
  group?: 'target';
}

/** A group of `?group=target` as its items name it: the type, the note or comment, and the day. */
export class GroupReadDto {
  @Type(() => Number)
  @IsIn([1, 2, 3], { message: 'type 必须是 1（赞了笔记）、2（赞了评论）或 3（收藏了笔记）' })
  type!: 1 | 2 | 3;

  @Type(() => Number)
  @IsInt({ message: 'target_id 必须是正整数' })
  @Min(1, { message: 'target_id 必须是正整数' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'target_id 必须是正整数' })
  target_id!: number;

  // The pattern fixes the form; the strict ISO check refuses days that do not exist, such as 2026-02-30.
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'day 必须是 YYYY-MM-DD 格式的日期' })
  @IsISO8601({ strict: true }, { message: 'day 必须是 YYYY-MM-DD 格式的日期' })
  day!: string;
}
