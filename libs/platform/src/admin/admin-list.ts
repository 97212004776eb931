import { applyDecorators, BadRequestException, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, Max, Min } from 'class-validator';
import type { FastifyRequest as Request } from 'fastify';
import { ApiErrors } from '../http/api-docs';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE, offsetOf } from '../http/pagination';
import type { EntityManager } from 'typeorm';
import { AdminOnly } from '../auth/auth.decorators';
import { rowsOf } from '../database/rows';

/** How one filter of an admin list matches: `equals` a text, `integer` or `boolean` value, or `contains` text in any of its columns. */
export interface AdminFilter {
  match: 'equals' | 'integer' | 'boolean' | 'contains';
  /** SQL expressions the filter compares with; `contains` matches when any of them contains the text. */
  columns: string[];
  description: string;
}

/** What an entity's admin list may be filtered and sorted by (admin-and-startup.md §7): nothing else is accepted. */
export interface AdminListSpec {
  /** sortField name → the SQL expression it orders by. */
  sortFields: Record<string, string>;
  defaultSort: string;
  /** The unique column ordered by after the sort field, so that equal values never let pages overlap. */
  tieBreaker: string;
  filters: Record<string, AdminFilter>;
}

/** A parsed admin list request: the SQL pieces a repository puts into its statement. */
export interface AdminListQuery {
  page: number;
  limit: number;
  offset: number;
  /** `WHERE …` with `$n` placeholders numbered from 1, or empty. */
  where: string;
  params: unknown[];
  /** `ORDER BY …`, the whitelisted column with the id as tie-breaker so that pages never overlap. */
  orderBy: string;
}

const PAGING = new Set(['page', 'limit', 'sortField', 'sortOrder', 'order']);

function positiveInteger(raw: unknown, name: string, max: number, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > max) throw new BadRequestException(`${name} 必须是 1-${max} 的整数`);
  return value;
}

/**
 * Reads page, limit, sortField / sortOrder (or `order`, which some clients send) and the entity's filters from a
 * query string. A sortField, sort order, filter value or parameter the entity does not declare is a 400, so a typo
 * in the console shows instead of silently listing everything. A parameter with an empty value is dropped
 * whatever its name (DESIGN.md §4): a console sends every filter of its search bar, filled in or not.
 */
export function parseAdminList(query: Record<string, unknown>, spec: AdminListSpec): AdminListQuery {
  for (const name of Object.keys(query)) {
    if (query[name] === '') continue;
    if (!PAGING.has(name) && !(name in spec.filters)) throw new BadRequestException(`不支持的查询参数：${name}`);
    if (Array.isArray(query[name])) throw new BadRequestException(`查询参数 ${name} 只能出现一次`);
  }
  const page = positiveInteger(query.page, 'page', MAX_PAGE, 1);
  const limit = positiveInteger(query.limit, 'limit', MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  const sortField = query.sortField === undefined || query.sortField === '' ? spec.defaultSort : String(query.sortField);
  const sortColumn = Object.prototype.hasOwnProperty.call(spec.sortFields, sortField) ? spec.sortFields[sortField] : undefined;
  if (!sortColumn) throw new BadRequestException(`不支持按 ${sortField} 排序，可选：${Object.keys(spec.sortFields).join('、')}`);
  const rawOrder = query.sortOrder ?? query.order;
  const order = rawOrder === undefined || rawOrder === '' ? 'desc' : String(rawOrder).toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw new BadRequestException('sortOrder 只能是 asc 或 desc');

  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const [name, filter] of Object.entries(spec.filters)) {
    const raw = query[name];
    if (raw === undefined || raw === '') continue;
    const text = String(raw).trim();
    if (!text) continue;
    if (filter.match === 'integer') {
      if (!/^-?\d{1,15}$/.test(text)) throw new BadRequestException(`${name} 必须是整数`);
      params.push(Number(text));
      conditions.push(`${filter.columns[0]} = $${params.length}`);
    } else if (filter.match === 'boolean') {
      const value = { true: true, '1': true, false: false, '0': false }[text];
      if (value === undefined) throw new BadRequestException(`${name} 只能是 true/false 或 1/0`);
      params.push(value);
      conditions.push(`${filter.columns[0]} = $${params.length}`);
    } else if (filter.match === 'equals') {
      params.push(text);
      conditions.push(`lower(${filter.columns[0]}::text) = lower($${params.length})`);
    } else {
      params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      conditions.push(`(${filter.columns.map((column) => `${column}::text ILIKE $${params.length}`).join(' OR ')})`);
    }
  }
  const direction = order.toUpperCase();
  return {
    page,
    limit,
    offset: offsetOf(page, limit),
    where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '',
    params,
    orderBy: `ORDER BY ${sortColumn} ${direction} NULLS LAST, ${spec.tieBreaker} ${direction}`,
  };
}

/** The parsed list request of a handler, against the entity's spec. */
export const AdminListParams = createParamDecorator((spec: AdminListSpec, context: ExecutionContext): AdminListQuery =>
  parseAdminList(context.switchToHttp().getRequest<Request>().query as Record<string, unknown>, spec),
);

/** `pages` and `totalPages` are the same number: the spec names it both ways (DESIGN.md §4, two names). */
export interface AdminPagination {
  page: number;
  limit: number;
  total: number;
  pages: number;
  totalPages: number;
}

/** admin-and-startup.md §7: "list responses hold a data list and pagination". */
export interface AdminPage<T> {
  data: T[];
  pagination: AdminPagination;
}

export function adminPage<T>(rows: T[], query: Pick<AdminListQuery, 'page' | 'limit'>, total: number): AdminPage<T> {
  const pages = Math.ceil(total / query.limit);
  return { data: rows, pagination: { page: query.page, limit: query.limit, total, pages, totalPages: pages } };
}

/** One page of `select` (a statement without WHERE, ORDER BY or LIMIT) and the count of all its rows, under the parsed filters. */
export async function adminRows<T>(manager: EntityManager, query: AdminListQuery, select: string): Promise<{ rows: T[]; total: number }> {
  const rows = await rowsOf<T>(manager, `${select} ${query.where} ${query.orderBy} LIMIT $${query.params.length + 1} OFFSET $${query.params.length + 2}`, [
    ...query.params,
    query.limit,
    query.offset,
  ]);
  const [{ total }] = await rowsOf<{ total: number }>(manager, `SELECT count(*)::int AS "total" FROM (${select} ${query.where}) AS "listed"`, query.params);
  return { rows, total };
}

/** The body of a bulk delete (admin-and-startup.md §7 `DELETE /admin/{entity}` with `{ ids }`). */
export class AdminIdsDto {
  @IsArray({ message: '请选择要删除的项目' })
  @ArrayMinSize(1, { message: '请选择要删除的项目' })
  @ArrayMaxSize(MAX_PAGE_SIZE, { message: `一次最多删除${MAX_PAGE_SIZE}项` })
  @Type(() => Number)
  @IsInt({ each: true, message: 'ids 必须是正整数' })
  @Min(1, { each: true, message: 'ids 必须是正整数' })
  @Max(Number.MAX_SAFE_INTEGER, { each: true, message: 'ids 必须是正整数' })
  ids!: number[];
}

/**
 * An admin list operation: administrators only (403 for a student's token), its query parameters documented
 * from the entity's spec.
 */
export function AdminList(spec: AdminListSpec) {
  return applyDecorators(
    AdminOnly(),
    ApiErrors(403),
    ApiQuery({ name: 'page', required: false, type: Number, description: '页码，默认 1' }),
    ApiQuery({ name: 'limit', required: false, type: Number, description: `每页条数，默认 ${DEFAULT_PAGE_SIZE}，最多 ${MAX_PAGE_SIZE}` }),
    ApiQuery({ name: 'sortField', required: false, enum: Object.keys(spec.sortFields), description: `排序字段，默认 ${spec.defaultSort}` }),
    ApiQuery({ name: 'sortOrder', required: false, enum: ['asc', 'desc'], description: '排序方向，默认 desc' }),
    ...Object.entries(spec.filters).map(([name, filter]) =>
      ApiQuery({ name, required: false, type: filter.match === 'integer' ? Number : filter.match === 'boolean' ? Boolean : String, description: filter.description }),
    ),
  );
}

/** Any other admin operation: administrators only, 403 for a student's token. */
export const AdminOperation = () => applyDecorators(AdminOnly(), ApiErrors(403));
