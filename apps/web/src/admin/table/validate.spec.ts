import { entityByName } from '../entities';
import { initialValues, toBody, validate } from './validate';

const form = (name: string) => entityByName(name)!.form;

describe('the management forms', () => {
  it('require the user ID and nickname within 15 and 10 characters', () => {
    expect(validate(form('users'), initialValues(form('users'), null), 'create')).toEqual({ user_id: '请输入小石榴号', nickname: '请输入昵称', password: '请输入密码' });
    const values = { ...initialValues(form('users'), null), user_id: 'a'.repeat(16), nickname: '一二三四五六七八九十一', password: 'secret1' };
    expect(validate(form('users'), values, 'create')).toEqual({ user_id: '小石榴号不能超过15个字符', nickname: '昵称不能超过10个字符' });
    expect(validate(form('users'), { ...values, user_id: 'stu_1', nickname: '小柳', password: '' }, 'edit')).toEqual({});
  });
  it('allow only lowercase English letters in a category title', () => {
    const values = { name: '美食', category_title: 'Food' };
    expect(validate(form('categories'), values, 'create')).toEqual({ category_title: '只能输入小写英文字母' });
    expect(validate(form('categories'), { ...values, category_title: 'food' }, 'create')).toEqual({});
  });
  it('limit a note to 10 tags and 9 images, and its views to 0 or more; images only for image-text notes', () => {
    const base = { ...initialValues(form('posts'), null), user_id: '7', title: '标题', content: '正文', category_id: '1', type: '1' };
    expect(validate(form('posts'), base, 'create')).toEqual({});
    const crowded = { ...base, view_count: '-1', tags: Array.from({ length: 11 }, (_, i) => `t${i}`), images: Array.from({ length: 10 }, (_, i) => `/i${i}.jpg`) };
    expect(validate(form('posts'), crowded, 'create')).toEqual({ view_count: '浏览量不能小于0', tags: '标签最多10个', images: '图片最多9个' });
    expect(validate(form('posts'), { ...crowded, view_count: '0', tags: [], type: '2' }, 'create')).toEqual({ video_url: '请输入视频地址' });
    expect(validate(form('posts'), { ...crowded, view_count: '0', tags: [], type: '2', video_url: '/v.mp4' }, 'create')).toEqual({});
  });
  it('ask for the choices the spec requires', () => {
    expect(validate(form('notifications'), initialValues(form('notifications'), null), 'create')).toEqual({ user_id: '请输入接收者小石榴号', sender_id: '请输入发送者小石榴号', type: '请选择类型', title: '请输入标题', target_id: '请输入目标ID' });
    expect(validate(form('audit'), { ...initialValues(form('audit'), null), user_id: 'stu_1', content: '学生会' }, 'create')).toEqual({ content: '申请内容须为 JSON 对象，如 {"real_name": "张三"}' });
    expect(validate(form('comments'), initialValues(form('comments'), null), 'create')).toEqual({ post_id: '请输入笔记ID', content: '请输入内容', user_id: '请输入评论者小石榴号' });
  });
  it('sends numbers as numbers, leaves out empty optional fields, and only the password when editing an admin', () => {
    expect(toBody(form('posts'), { ...initialValues(form('posts'), null), user_id: 'stu_7', title: 't', content: 'c', category_id: '3', type: '1', view_count: '12', tags: ['a'] }, 'create')).toEqual({
      user_id: 'stu_7',
      title: 't',
      content: 'c',
      category_id: 3,
      type: 1,
      is_draft: false,
      view_count: 12,
      tags: ['a'],
    });
    const post = { ...initialValues(form('posts'), { user_id: 'stu_7', is_draft: 1, type: 2 }), title: 't', content: 'c', category_id: '3', video_url: '/v.mp4' };
    expect(entityByName('posts')!.transform!(toBody(form('posts'), post, 'edit'), 'edit')).toEqual({ title: 't', content: 'c', category_id: 3, type: 2, is_draft: true, video: { url: '/v.mp4' } });
    expect(toBody(form('audit'), { ...initialValues(form('audit'), null), user_id: 'stu_1', type: '2', content: '{"real_name":"张三"}' }, 'create')).toEqual({ user_id: 'stu_1', type: 2, content: { real_name: '张三' } });
    const admin = initialValues(form('admins'), { id: 2, username: 'ops', created_at: '2026-01-01' });
    expect(validate(form('admins'), admin, 'edit')).toEqual({ password: '请输入密码' });
    expect(toBody(form('admins'), { ...admin, password: 'secret9' }, 'edit')).toEqual({ password: 'secret9' });
  });
});
