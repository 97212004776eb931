import { addRecent, EMOJI_GROUPS, searchEmojis, withTone } from './emoji-data';
import { decodeMentions, encodeMentions, insertAt } from './mentions';

describe('the emoji picker data', () => {
  it('has the spec’s eight fixed groups after 最近使用', () => {
    expect(EMOJI_GROUPS.map((group) => group.id)).toEqual(['smileys_people', 'animals_nature', 'food_drink', 'activities', 'travel_places', 'objects', 'symbols', 'flags']);
    expect(EMOJI_GROUPS.every((group) => group.emojis.length >= 30 && group.emojis.every((emoji) => emoji.char && emoji.name))).toBe(true);
  });

  it('puts a skin tone after the first code point of toneable emojis only', () => {
    const thumbs = EMOJI_GROUPS[0]!.emojis.find((emoji) => emoji.name === '赞')!;
    const grin = EMOJI_GROUPS[0]!.emojis.find((emoji) => emoji.name === '大笑')!;
    expect(withTone(thumbs, '\u{1F3FD}')).toBe('👍🏽');
    expect(withTone(thumbs, '')).toBe('👍');
    expect(withTone(grin, '\u{1F3FD}')).toBe('😀');
    const student = EMOJI_GROUPS[0]!.emojis.find((emoji) => emoji.name === '女学生')!;
    expect(withTone(student, '\u{1F3FB}')).toBe('👩🏻‍🎓');
  });

  it('finds emojis by Chinese name', () => {
    expect(searchEmojis('樱花').map((emoji) => emoji.char)).toEqual(['🌸']);
    expect(searchEmojis('  ')).toEqual([]);
    expect(searchEmojis('不存在的表情')).toEqual([]);
  });

  it('keeps 24 recent emojis, newest first, without repeats', () => {
    let recent: string[] = [];
    for (const emoji of ['😀', '🌸', '😀']) recent = addRecent(recent, emoji);
    expect(recent).toEqual(['😀', '🌸']);
    const full = Array.from({ length: 24 }, (_, i) => String(i));
    expect(addRecent(full, 'x')).toHaveLength(24);
    expect(addRecent(full, 'x')[0]).toBe('x');
  });
});

describe('mentions in the editors', () => {
  it('turn @昵称 of picked users into markup, longer names first, and back', () => {
    const picked = { 小柳: 'willow', 小柳柳: 'willow_2' };
    const sent = encodeMentions('你好 @小柳柳 和 @小柳，还有 @路人', picked);
    expect(sent).toBe('你好 [@小柳柳:willow_2] 和 [@小柳:willow]，还有 @路人');
    expect(decodeMentions(sent)).toEqual({ text: '你好 @小柳柳 和 @小柳，还有 @路人', picked });
  });

  it('insert at the caret, replacing a selection', () => {
    expect(insertAt('abcd', 2, 2, '😀')).toEqual({ text: 'ab😀cd', caret: 4 });
    expect(insertAt('abcd', 1, 3, '@x ')).toEqual({ text: 'a@x d', caret: 4 });
  });
});
