import { commentBodyHtml, commentHtml, renderMentions, richTextToPlain } from './rich-text';

describe('mentions', () => {
  it('renders mention markup as links to the user page', () => {
    expect(renderMentions('<p>和 [@小明:xiao_ming] 一起～</p>')).toBe('<p>和 <a class="mention" href="/user/xiao_ming" target="_blank" rel="noreferrer">@小明</a> 一起～</p>');
  });

  it('escapes comment text before linking its mentions', () => {
    expect(commentHtml('<b>hi</b> [@A&B:ab_1]\nbye')).toBe('&lt;b&gt;hi&lt;/b&gt; <a class="mention" href="/user/ab_1" target="_blank" rel="noreferrer">@A&amp;B</a><br>bye');
  });

  it('shows a stored comment’s text without the images it embeds, mentions linked and line breaks kept', () => {
    expect(commentBodyHtml('a &lt; b [@小明:xiao_ming]\n下一行<img src="/api/files/a.jpg" alt="评论图片">')).toBe(
      'a &lt; b <a class="mention" href="/user/xiao_ming" target="_blank" rel="noreferrer">@小明</a><br>下一行',
    );
  });
});

describe('rich text as plain words', () => {
  it('drops markup and images, decodes entities once and reads mentions as names', () => {
    expect(richTextToPlain('<p>周末和[@林小雨:lin_xiaoyu]去爬山</p><p>a &amp;lt; b<br>下一行<img src="/api/files/a.jpg"></p>')).toBe('周末和@林小雨去爬山 a &lt; b 下一行');
  });
});
