import { layoutFor, placeItems } from './waterfall';

describe('the waterfall', () => {
  it('has the spec columns and gaps by window width', () => {
    expect([1440, 1300, 1000, 700, 375].map(layoutFor)).toEqual([
      { columns: 5, gap: 16 },
      { columns: 4, gap: 16 },
      { columns: 4, gap: 15 },
      { columns: 3, gap: 12 },
      { columns: 2, gap: 10 },
    ]);
  });

  it('puts each card in the shortest column', () => {
    expect(placeItems([1.3, 1, 1, 1.3, 1], 2).placed).toEqual([0, 1, 1, 0, 1]);
  });

  it('keeps placed cards in their columns when a page is appended', () => {
    const first = placeItems([1.3, 1, 0.8, 1.2], 3);
    const more = placeItems([1.3, 1, 0.8, 1.2, 1, 1, 1], 3, first);
    expect(more.placed.slice(0, 4)).toEqual(first.placed);
    expect(placeItems([1, 1], 2, first).placed).toEqual([0, 1]);
  });
});
