import { embeddedImages, findMentions, resolveMentions, sanitizeRichText, textLength, toPlainLine, toPlainText } from './rich-text';

describe('sanitizeRichText', () => {
  it('removes control characters, keeping line breaks', () => {
    expect(sanitizeRichText('<p>a\u0007b\u001b[31m\u009bc</p>')).toBe('<p>ab[31mc</p>');
    expect(toPlainText('标题\u0001\u007f\n第二行')).toBe('标题\n第二行');
  });

  it('keeps the allowed formatting', () => {
    expect(sanitizeRichText('<p>你好<strong>世界</strong><br><em>!</em></p><ul><li>一</li></ul>')).toBe('<p>你好<strong>世界</strong><br /><em>!</em></p><ul><li>一</li></ul>');
  });

  it('removes scripts with their text, handlers, styles and unknown elements', () => {
    expect(sanitizeRichText('<p onclick="x()" style="color:red" class="c">a<script>alert(1)</script></p><svg><script>1</script></svg><iframe src="//x"></iframe>')).toBe('<p>a</p>');
  });

  it('drops script URLs from links and opens the rest safely', () => {
    expect(sanitizeRichText('<a href="javascript:alert(1)">x</a>')).toBe('<a target="_blank" rel="noopener noreferrer nofollow">x</a>');
    expect(sanitizeRichText('<a href="https://example.com" target="_self">x</a>')).toBe('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">x</a>');
  });

  it('keeps images of our object store only, at their canonical URL', () => {
    expect(sanitizeRichText('<img src="/api/files/a/b.png" onerror="x">')).toBe('<img src="/api/files/a/b.png" />');
    expect(sanitizeRichText('<img src="http://localhost:8080/api/files/a/b.png">')).toBe('<img src="/api/files/a/b.png" />');
    expect(sanitizeRichText('<img src="https://evil.example.com/x.png"><img src="/api/files/../etc/passwd"><img src="data:image/png;base64,AA==">')).toBe('');
  });
});

describe('toPlainText and toPlainLine', () => {
  it('gives text without markup, entities decoded', () => {
    expect(toPlainText('<p>a &lt; b &amp; c</p><p>d</p>')).toBe('a < b & c\nd');
    expect(toPlainLine('  <b>标题</b>\n 第二行 ')).toBe('标题 第二行');
  });

  it('never answers something that parses as a tag, even from encoded markup', () => {
    expect(toPlainLine('&lt;img src=x onerror=alert(1)&gt;好')).toBe('好');
    expect(toPlainLine('<<script>script>alert(1)<</script>/script>x')).not.toMatch(/<[a-z/]/i);
  });
});

describe('mentions', () => {
  it('finds [@nickname:user_id] markup', () => {
    expect(findMentions('hi [@小柳:willow_1] and [@x:ab] [@坏:bad id]')).toEqual([{ nickname: '小柳', userId: 'willow_1' }]);
  });

  it('keeps known users and turns unknown ones into plain text', () => {
    expect(resolveMentions('[@甲:user_a] [@乙:user_b] [@甲:user_a]', new Set(['user_a']))).toEqual({ text: '[@甲:user_a] @乙 [@甲:user_a]', userIds: ['user_a'] });
  });

  it('keeps at most 20 distinct mentions', () => {
    const ids = Array.from({ length: 25 }, (_, i) => `user_${i}`);
    const { userIds } = resolveMentions(ids.map((id) => `[@n:${id}]`).join(' '), new Set(ids));
    expect(userIds).toHaveLength(20);
  });
});

describe('small helpers', () => {
  it('counts characters as people do', () => {
    expect(textLength('拾柳😀')).toBe(3);
  });

  it('lists embedded images', () => {
    expect(embeddedImages('<p>x</p><img src="/api/files/a.png" /><img src="/api/files/b.png" />')).toEqual(['/api/files/a.png', '/api/files/b.png']);
  });
});
