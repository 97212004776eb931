import { LOCK_PX, lockedAxis, SWIPE_PX } from './useGallerySwipe';

describe('swipes in the gallery and the image viewer (public-side.md §9: 50 px swipe, 10 px horizontal lock)', () => {
  it('keeps the spec’s figures', () => {
    expect([SWIPE_PX, LOCK_PX]).toEqual([50, 10]);
  });

  it('locks to no axis until a move has gone past 10 px either way', () => {
    expect(lockedAxis(10, 0)).toBeNull();
    expect(lockedAxis(-7, 9)).toBeNull();
    expect(lockedAxis(11, 3)).toBe('x');
    expect(lockedAxis(-11, 3)).toBe('x');
    expect(lockedAxis(4, 11)).toBe('y');
  });

  it('locks to the axis the finger went further along, vertical on a tie', () => {
    expect(lockedAxis(30, 29)).toBe('x');
    expect(lockedAxis(20, 20)).toBe('y');
  });
});
