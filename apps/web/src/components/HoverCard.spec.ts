import { HOVER_CARD, hoverCardPosition } from './HoverCard';

describe('the hover card', () => {
  it('shows after 500 ms and hides 200 ms after the pointer leaves; about 360 × 300, offset 12, margin 16', () => {
    expect(HOVER_CARD).toEqual({ showDelayMs: 500, hideDelayMs: 200, width: 360, height: 300, offset: 12, margin: 16 });
  });

  it('sits 12 px below its anchor, 16 px inside the viewport', () => {
    expect(hoverCardPosition({ left: 100, top: 100, bottom: 120 }, { width: 1280, height: 800 })).toEqual({ left: 100, top: 132 });
    expect(hoverCardPosition({ left: 4, top: 100, bottom: 120 }, { width: 1280, height: 800 })).toEqual({ left: 16, top: 132 });
    expect(hoverCardPosition({ left: 1200, top: 100, bottom: 120 }, { width: 1280, height: 800 })).toEqual({ left: 1280 - 360 - 16, top: 132 });
  });

  it('goes above its anchor when 300 px do not fit below', () => {
    expect(hoverCardPosition({ left: 100, top: 600, bottom: 620 }, { width: 1280, height: 800 })).toEqual({ left: 100, top: 600 - 12 - 300 });
    expect(hoverCardPosition({ left: 100, top: 200, bottom: 620 }, { width: 1280, height: 800 })).toEqual({ left: 100, top: 16 });
  });
});
