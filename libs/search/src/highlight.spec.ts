import { highlight } from './highlight';

describe('highlight', () => {
  it('wraps each matched word, case aside, and escapes everything else', () => {
    expect(highlight('周末<b>野餐</b> Picnic & 野餐', ['野餐', 'picnic'])).toBe('周末&lt;b&gt;<em>野餐</em>&lt;/b&gt; <em>Picnic</em> &amp; <em>野餐</em>');
  });

  it('merges overlapping matches and leaves a title without matches escaped', () => {
    expect(highlight('图书馆自习', ['图书', '书馆'])).toBe('<em>图书馆</em>自习');
    expect(highlight('<script>', ['野餐'])).toBe('&lt;script&gt;');
  });
});
