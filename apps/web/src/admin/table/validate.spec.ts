import { entityByName } from '../entities';
import { initialValues, toBody, validate } from './validate';

const form = (name: string) => entityByName(name)!.form;

describe('the management forms', () => {
  it('require the user ID and nickname within 15 and 10 characters', () => {
    expect(validate(form('users'), initialValues(form('users'), null), 'create')).toEqual({ user_id: '请输入小石榴号', nickname: '请输入昵称' });
    const values = { ...initialValues(form('users'), null), user_id: 'a'.repeat(16), nickname: '一二三四五六七八九十一' };
    expect(validate(form('users'), values, 'create')).toEqual({ user_id: '小石榴号不能超过15个字符', nickname: '昵称不能超过10个字符' });
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
    expect(validate(form('posts'), { ...crowded, view_count: '0', tags: [], type: '2' }, 'create')).toEqual({});
  });
  it('ask for the choices the spec requires', () => {
    expect(validate(form('notifications'), initialValues(form('notifications'), null), 'create')).toEqual({ user_id: '请输入接收者ID', sender_id: '请输入发送者ID', type: '请选择类型', title: '请输入标题' });
    expect(validate(form('comments'), initialValues(form('comments'), null), 'create')).toEqual({ post_id: '请输入笔记ID', content: '请输入内容' });
  });
  it('sends numbers as numbers, leaves out empty optional fields, and only the password when editing an admin', () => {
    expect(toBody(form('posts'), { ...initialValues(form('posts'), null), user_id: '7', title: 't', content: 'c', category_id: '3', type: '1', view_count: '12', tags: ['a'] }, 'create')).toEqual({
      user_id: '7',
      title: 't',
      content: 'c',
      category_id: 3,
      type: 1,
      is_draft: 0,
      view_count: 12,
      tags: ['a'],
    });
    const admin = initialValues(form('admins'), { id: 2, username: 'ops', created_at: '2026-01-01' });
    expect(validate(form('admins'), admin, 'edit')).toEqual({ password: '请输入密码' });
    expect(toBody(form('admins'), { ...admin, password: 'secret9' }, 'edit')).toEqual({ password: 'secret9' });
  });
});
