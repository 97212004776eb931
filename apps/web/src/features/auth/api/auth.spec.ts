import { NEW_USER_DEFAULTS } from './auth';

describe('a new registration (public-side.md §7)', () => {
  it("sends the product's default avatar, bio and location", () => {
    expect(NEW_USER_DEFAULTS).toEqual({ avatar: '/default-avatar.svg', bio: '用户没有任何简介', location: '未知' });
  });
});
