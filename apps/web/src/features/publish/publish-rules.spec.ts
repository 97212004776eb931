import { compressedSize, imageProblem, imageSlots } from '../../lib/images';
import { contentToText, moveItem, PUBLISH_IDLE_LABEL, publishProblem, publishSteps, stepLabel, tagState, tagSuggestions, textToContent, videoProblem } from './publish-rules';

const form = { mode: 'image' as const, title: '标题', content: '内容', categoryId: 1, images: 1, video: false };

describe('publish step machine', () => {
  it('uploads images, then video, then cover, then submits', () => {
    expect(publishSteps({ images: 2, video: true, cover: true })).toEqual(['images', 'video', 'cover', 'submit']);
    expect(publishSteps({ images: 0, video: false, cover: false })).toEqual(['submit']);
  });
  it('labels the button by step', () => {
    expect(PUBLISH_IDLE_LABEL).toBe('上传');
    expect(stepLabel(null, PUBLISH_IDLE_LABEL)).toBe('上传');
    expect(stepLabel('images', PUBLISH_IDLE_LABEL)).toBe('上传中...');
    expect(stepLabel('submit', PUBLISH_IDLE_LABEL)).toBe('提交中...');
  });
  it('checks publish and draft rules in order', () => {
    expect(publishProblem(form, false)).toBeNull();
    expect(publishProblem({ ...form, title: ' ' }, false)).toBe('请输入标题');
    expect(publishProblem({ ...form, content: '' }, false)).toBe('请输入内容');
    expect(publishProblem({ ...form, categoryId: null }, false)).toBe('请选择分类');
    expect(publishProblem({ ...form, published: true, title: ' ' }, false)).toBe('请填写完整信息');
    expect(publishProblem({ ...form, published: true, content: '' }, false)).toBe('请填写完整信息');
    expect(publishProblem({ ...form, published: true }, false)).toBeNull();
    expect(publishProblem({ ...form, images: 0 }, false)).toBe('请至少上传一张图片');
    expect(publishProblem({ ...form, mode: 'video' }, false)).toBe('请选择视频文件');
    expect(publishProblem({ ...form, title: '', content: '' }, true)).toBe('请输入标题或内容');
    expect(publishProblem({ ...form, categoryId: null, title: '' }, true)).toBeNull();
  });
});

describe('tag input rules', () => {
  it('trims, caps at 8 characters and refuses empty, duplicate or an eleventh tag', () => {
    expect(tagState([], '  校园生活  ')).toEqual({ tag: '校园生活', ok: true, reason: null });
    expect(tagState([], '一二三四五六七八九').tag).toBe('一二三四五六七八');
    expect(tagState([], '   ').reason).toBe('empty');
    expect(tagState(['猫'], '猫').reason).toBe('duplicate');
    expect(tagState(Array.from({ length: 10 }, (_, i) => `t${i}`), '新').reason).toBe('full');
  });
  it('suggests up to ten case-insensitive matches, without chosen tags', () => {
    expect(tagSuggestions(['Cat', 'cats', 'dog'], ['cats'], 'CA')).toEqual(['Cat']);
    expect(tagSuggestions(Array.from({ length: 20 }, (_, i) => `t${i}`), [], '')).toHaveLength(10);
  });
});

describe('media rules', () => {
  it('checks image type and size and the nine-image limit', () => {
    expect(imageProblem({ type: 'image/gif', size: 1 })).toBe('不支持的文件类型');
    expect(imageProblem({ type: 'text/plain', size: 1 })).toBe('请选择图片文件');
    expect(imageProblem({ type: 'image/png', size: 6 * 1024 * 1024 })).toContain('超过 5MB 限制');
    expect(imageSlots(7, 4)).toEqual({ take: 2, message: '最多只能再添加2张图片' });
    expect(imageSlots(9, 1)).toEqual({ take: 0, message: '最多只能上传9张图片' });
  });
  it('checks videos', () => {
    expect(videoProblem({ type: 'image/png', size: 1, name: 'a.png' })).toBe('请选择视频文件');
    expect(videoProblem({ type: 'video/mp4', size: 1, name: 'a.mp4' })).toBeNull();
  });
  it('compresses to 1200 px on the longer side', () => {
    expect(compressedSize(4000, 3000)).toEqual({ width: 1200, height: 900 });
    expect(compressedSize(800, 600)).toEqual({ width: 800, height: 600 });
  });
  it('round-trips content text', () => {
    expect(contentToText(textToContent('a<b>\n第二行 &'))).toBe('a<b>\n第二行 &');
  });
});

describe('reordering images', () => {
  const items = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
  it('moves an item to the place of another, both ways', () => {
    expect(moveItem(items, 'a', 'c').map((item) => item.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(items, 'd', 'b').map((item) => item.id)).toEqual(['a', 'd', 'b', 'c']);
  });
  it('leaves the list alone for the same or an unknown item', () => {
    expect(moveItem(items, 'b', 'b')).toBe(items);
    expect(moveItem(items, 'x', 'b')).toBe(items);
  });
});
