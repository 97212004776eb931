import { fontSizeFor, hasBannedWord, lineHeightFor, wrapText } from './text-image';

describe('the text-image font rule', () => {
  it('sizes the font by the longest line', () => {
    expect(fontSizeFor(['春天'])).toBe(55);
    expect(fontSizeFor(['一二三四五'])).toBe(55);
    expect(fontSizeFor(['一二三四五六'])).toBe(45);
    expect(fontSizeFor(['一二三四五六七'])).toBe(45);
    expect(fontSizeFor(['短', '一二三四五六七八'])).toBe(40);
    expect(fontSizeFor(['一二三四五六七八九'])).toBe(35);
    expect(fontSizeFor(['一二三四五六七八九十'])).toBe(30);
    expect(fontSizeFor([])).toBe(55);
  });

  it('counts characters, not UTF-16 units, and adds 10 px of line height', () => {
    expect(fontSizeFor(['😀😀😀😀😀'])).toBe(55);
    expect(lineHeightFor(45)).toBe(55);
  });

  it('keeps the author’s line breaks and breaks lines that pass the width', () => {
    const measure = (text: string) => [...text].length * 10;
    expect(wrapText('一二三四五\n六', 30, measure)).toEqual(['一二三', '四五', '六']);
    expect(wrapText('', 30, measure)).toEqual(['']);
  });
});

describe('the banned-word check', () => {
  const words = ['赌博', 'spamword'];
  it('matches case-insensitively with spaces, markup and full-width forms removed', () => {
    expect(hasBannedWord('来<b>赌</b> 博吧', words)).toBe(true);
    expect(hasBannedWord('SPAM word', words)).toBe(true);
    expect(hasBannedWord('ＳＰＡＭ\u3000ｗｏｒｄ', words)).toBe(true);
    expect(hasBannedWord('春天的樱花', words)).toBe(false);
  });
});
