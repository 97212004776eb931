import { commentHtml, renderMentions } from './rich-text';

describe('mentions', () => {
  it('renders mention markup as links to the user page', () => {
    expect(renderMentions('<p>和 [@小明:xiao_ming] 一起～</p>')).toBe('<p>和 <a class="mention" href="/user/xiao_ming" target="_blank" rel="noreferrer">@小明</a> 一起～</p>');
  });

  it('escapes comment text before linking its mentions', () => {
    expect(commentHtml('<b>hi</b> [@A&B:ab_1]\nbye')).toBe('&lt;b&gt;hi&lt;/b&gt; <a class="mention" href="/user/ab_1" target="_blank" rel="noreferrer">@A&amp;B</a><br>bye');
  });
});
