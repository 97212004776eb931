import { BannedWordMatcher, normalizeForBannedWords } from './banned-words';

describe('normalizeForBannedWords', () => {
  it('removes markup, spaces and invisible characters', () => {
    expect(normalizeForBannedWords('来<b>赌</b> 博\t吧\n')).toBe('来赌博吧');
    expect(normalizeForBannedWords('赌\u3000博')).toBe('赌博');
    expect(normalizeForBannedWords('赌\u200b博\ufeff')).toBe('赌博');
  });

  it('makes full-width forms half-width and lowers the case', () => {
    expect(normalizeForBannedWords('ＳＰＡＭ　Ｗｏｒｄ１２３！')).toBe('spamword123!');
    expect(normalizeForBannedWords('SpAm')).toBe('spam');
  });
});

describe('BannedWordMatcher', () => {
  const matcher = new BannedWordMatcher(['赌博', '代开发票', ' Spam Word ', 'ab', 'bc', '', '赌博']);

  it('keeps each word once, normalised', () => {
    expect(matcher.words).toEqual(['赌博', '代开发票', 'spamword', 'ab', 'bc']);
  });

  it('finds a word whatever the spacing, markup, case or width', () => {
    expect(matcher.find('周末一起去赌博吗')).toBe('赌博');
    expect(matcher.find('<p>赌</p> 博')).toBe('赌博');
    expect(matcher.find('ＳＰＡＭ ｗｏｒｄ')).toBe('spamword');
    expect(matcher.find('可以代 开 发 票')).toBe('代开发票');
  });

  it('finds words that overlap or hide inside a failed prefix', () => {
    expect(matcher.find('xbc')).toBe('bc');
    expect(matcher.find('aabc')).toBe('ab');
    expect(new BannedWordMatcher(['abcd', 'bce']).find('abce')).toBe('bce');
  });

  it('passes text without any word, and everything when the list is empty', () => {
    expect(matcher.find('春天的樱花开了')).toBeNull();
    expect(matcher.find('赌一把，博一次')).toBeNull();
    expect(new BannedWordMatcher([]).find('赌博')).toBeNull();
  });
});
