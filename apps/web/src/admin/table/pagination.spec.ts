import { pageItems, toPage } from './pagination';

describe('the page numbers', () => {
  it('shows every page up to seven', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('shows 1-5, a gap and the last near the start', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'gap-end', 20]);
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 'gap-end', 20]);
  });
  it('shows the first, a gap and the last five near the end', () => {
    expect(pageItems(17, 20)).toEqual([1, 'gap-start', 16, 17, 18, 19, 20]);
    expect(pageItems(20, 20)).toEqual([1, 'gap-start', 16, 17, 18, 19, 20]);
  });
  it('shows three around the current page in the middle', () => {
    expect(pageItems(5, 20)).toEqual([1, 'gap-start', 4, 5, 6, 'gap-end', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'gap-start', 9, 10, 11, 'gap-end', 20]);
  });
});

describe('a list answer as a page', () => {
  it('reads the data list and its pagination, with pages or totalPages', () => {
    expect(toPage({ data: [{ id: 1 }], pagination: { page: 1, limit: 20, total: 41, pages: 3 } }, 1, 20)).toEqual({ rows: [{ id: 1 }], total: 41, pages: 3 });
    expect(toPage({ users: [{ id: 2 }], pagination: { total: 41, totalPages: 3 } }, 1, 20)).toEqual({ rows: [{ id: 2 }], total: 41, pages: 3 });
    expect(toPage({ items: [], pagination: { total: 0 } }, 1, 20)).toEqual({ rows: [], total: 0, pages: 1 });
  });
  it('pages a plain array itself (the admin accounts call)', () => {
    const all = Array.from({ length: 45 }, (_, index) => ({ id: index + 1 }));
    expect(toPage(all, 3, 20)).toEqual({ rows: all.slice(40), total: 45, pages: 3 });
  });
});
