export type PageItem = number | 'gap-start' | 'gap-end';

/**
 * The page numbers to show (admin-and-startup.md §2.7): up to 7 pages all of them; near the start 1-5, a gap and the
 * last; near the end the first, a gap and the last five; otherwise the first, a gap, three around the current page,
 * a gap and the last.
 */
export function pageItems(current: number, pages: number): PageItem[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, index) => index + 1);
  if (current <= 4) return [1, 2, 3, 4, 5, 'gap-end', pages];
  if (current >= pages - 3) return [1, 'gap-start', pages - 4, pages - 3, pages - 2, pages - 1, pages];
  return [1, 'gap-start', current - 1, current, current + 1, 'gap-end', pages];
}

export interface PageResult<R> {
  rows: R[];
  total: number;
  pages: number;
}

/**
 * A list answer as a page. The server's lists hold a data list and pagination with pages or totalPages (§7); the
 * admin accounts call answers a plain array, which is paged here.
 */
export function toPage<R>(data: unknown, page: number, limit: number): PageResult<R> {
  if (Array.isArray(data)) return { rows: data.slice((page - 1) * limit, page * limit) as R[], total: data.length, pages: Math.max(1, Math.ceil(data.length / limit)) };
  const body = (data ?? {}) as Record<string, unknown>;
  const list = ['data', 'items', 'list'].map((key) => body[key]).find(Array.isArray) ?? Object.values(body).find(Array.isArray) ?? [];
  const pagination = (body.pagination ?? body) as { total?: number; pages?: number; totalPages?: number };
  const total = Number(pagination.total ?? list.length);
  return { rows: list as R[], total, pages: Math.max(1, Number(pagination.pages ?? pagination.totalPages ?? Math.ceil(total / limit))) };
}
