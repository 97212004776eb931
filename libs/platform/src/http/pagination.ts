import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/** Far beyond any list we hold, and small enough that its offset stays a plain integer in SQL. */
export const MAX_PAGE = 1_000_000;

/** `page` (from 1) and `limit` (1-100, default 20), as every list call takes them (DESIGN.md §4). */
export class PaginationQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page 必须是正整数' })
  @Min(1, { message: 'page 必须是正整数' })
  @Max(MAX_PAGE, { message: `page 不能超过${MAX_PAGE}` })
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit 必须是 1-100 的整数' })
  @Min(1, { message: 'limit 必须是 1-100 的整数' })
  @Max(MAX_PAGE_SIZE, { message: 'limit 必须是 1-100 的整数' })
  limit: number = DEFAULT_PAGE_SIZE;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
}

export function pagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, pages: Math.ceil(total / limit) };
}

export function offsetOf(page: number, limit: number): number {
  return (page - 1) * limit;
}
