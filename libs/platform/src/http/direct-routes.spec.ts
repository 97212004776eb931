import { oneOf, readQuery, wholeNumberIn } from './direct-routes';

describe('a direct route reads only a query it takes exactly as given', () => {
  const readers = { page: wholeNumberIn(1, 1000), sort: oneOf('asc', 'desc') };
  const read = (query: string) => readQuery(new URLSearchParams(query), readers);

  it('reads the parameters it knows, each at most once', () => {
    expect(read('')).toEqual({});
    expect(read('page=12&sort=asc')).toEqual({ page: 12, sort: 'asc' });
    expect(read('sort=desc')).toEqual({ sort: 'desc' });
  });

  it('refuses another parameter, one given twice, or a value it does not take, so that Nest answers the call', () => {
    expect(read('page=1&other=1')).toBeNull();
    expect(read('page=1&page=2')).toBeNull();
    expect(read('sort=up')).toBeNull();
    expect(read('constructor=1')).toBeNull();
    for (const page of ['0', '01', '-1', '+1', '1e2', '1.0', ' 1', '1001', '', '99999999999999999']) expect(read(`page=${encodeURIComponent(page)}`)).toBeNull();
    expect(read('page=1000')).toEqual({ page: 1000 });
  });
});
