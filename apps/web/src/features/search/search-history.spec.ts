import { addToHistory, highlightParts, removeFromHistory } from './search-history';

describe('search history', () => {
  it('puts the latest first, trimmed and without duplicates', () => {
    expect(addToHistory(['猫', '狗'], '  狗 ')).toEqual(['狗', '猫']);
  });
  it('keeps at most five', () => {
    expect(addToHistory(['1', '2', '3', '4', '5'], '6')).toEqual(['6', '1', '2', '3', '4']);
  });
  it('ignores an empty keyword', () => {
    expect(addToHistory(['猫'], '   ')).toEqual(['猫']);
  });
  it('removes one entry in edit mode', () => {
    expect(removeFromHistory(['猫', '狗'], '猫')).toEqual(['狗']);
  });
});

describe('highlightParts', () => {
  it('splits the marked matches and decodes the escaped text', () => {
    expect(highlightParts('春日<em>樱花</em> &lt;b&gt; &amp;')).toEqual([
      { text: '春日', mark: false },
      { text: '樱花', mark: true },
      { text: ' <b> &', mark: false },
    ]);
  });
});
