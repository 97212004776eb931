import { acceptImages, attachments, commentContent, commentProblem, type CommentImage, isUploading } from './comment-images';

const image = (id: string, url: string | null = null): CommentImage => ({ id, file: null, preview: `blob:${id}`, uploaded: url !== null, url });
const file = (name: string, type = 'image/jpeg', size = 1000) => ({ name, type, size });

describe('comment image attachments', () => {
  it('adds local previews, gives one its address once uploaded and drops one whose upload failed', () => {
    let state = attachments([], { type: 'add', images: [image('a'), image('b'), image('c')] });
    expect(isUploading(state)).toBe(true);
    state = attachments(state, { type: 'uploaded', id: 'b', url: '/api/files/b.jpg' });
    expect(state.map((each) => [each.id, each.uploaded, each.url])).toEqual([
      ['a', false, null],
      ['b', true, '/api/files/b.jpg'],
      ['c', false, null],
    ]);
    state = attachments(state, { type: 'failed', id: 'a' });
    state = attachments(state, { type: 'uploaded', id: 'c', url: '/api/files/c.jpg' });
    expect(state.map((each) => each.id)).toEqual(['b', 'c']);
    expect(isUploading(state)).toBe(false);
  });

  it('forgets an upload that finishes after its image was removed', () => {
    let state = attachments([], { type: 'add', images: [image('a')] });
    state = attachments(state, { type: 'remove', id: 'a' });
    expect(attachments(state, { type: 'uploaded', id: 'a', url: '/api/files/a.jpg' })).toEqual([]);
  });

  it('restores a whole list (a failed send) and clears it (cancel)', () => {
    const kept = [image('a', '/api/files/a.jpg')];
    expect(attachments([], { type: 'set', images: kept })).toBe(kept);
    expect(attachments(kept, { type: 'set', images: [] })).toEqual([]);
  });

  it('takes only the free slots of nine, with the spec’s messages for the count, the type and the size', () => {
    expect(acceptImages(7, [file('1.jpg'), file('2.jpg'), file('3.jpg')])).toEqual({ accepted: [file('1.jpg'), file('2.jpg')], messages: ['最多只能再添加2张图片'] });
    expect(acceptImages(9, [file('1.jpg')])).toEqual({ accepted: [], messages: ['最多只能上传9张图片'] });
    const { accepted, messages } = acceptImages(0, [file('a.gif', 'image/gif'), file('b.txt', 'text/plain'), file('c.png', 'image/png', 6 * 1024 * 1024), file('d.webp', 'image/webp')]);
    expect(accepted.map((each) => each.name)).toEqual(['d.webp']);
    expect(messages).toEqual(['a.gif: 不支持的文件类型；b.txt: 请选择图片文件；c.png: 图片大小为 6.0MB，超过 5MB 限制，请选择更小的图片']);
  });

  it('needs text or an image, and waits for uploads to finish', () => {
    expect(commentProblem('  ', [])).toBe('请输入评论内容或上传图片');
    expect(commentProblem('', [image('a', '/api/files/a.jpg')])).toBeNull();
    expect(commentProblem('好看', [image('a')])).toBe('图片上传中，请稍候');
    expect(commentProblem('好看', [])).toBeNull();
  });

  it('sends the typed text escaped, followed by the uploaded images as markup', () => {
    expect(commentContent(' a<b & [@小明:xiao_ming] ', [image('a', '/api/files/a.jpg'), image('b')])).toBe('a&lt;b &amp; [@小明:xiao_ming]<img src="/api/files/a.jpg" alt="评论图片">');
    expect(commentContent('', [image('a', '/api/files/a.jpg')])).toBe('<img src="/api/files/a.jpg" alt="评论图片">');
  });
});
