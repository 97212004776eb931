import type { PublicUser } from '../src/users/public-user';
import { AuthTestApp, signUp, type Tokens } from './auth-test-app';

/** Profiles, password, account deletion and user search; captchas and limits in memory, as in embedded mode. */
describe('users (auth service, PostgreSQL, in-memory limits)', () => {
  let auth: AuthTestApp;

  beforeAll(async () => {
    auth = await AuthTestApp.start();
  });

  afterAll(async () => {
    await auth?.close();
  });

  const events = async (type: string) =>
    (await auth.service.dataSource.query(`SELECT "envelope" FROM "outbox" WHERE "type" = $1 ORDER BY "seq"`, [type])).map(
      (row: { envelope: { payload: unknown } }) => row.envelope.payload,
    );

  describe('profiles', () => {
    it('shows only public fields: never a password hash', async () => {
      const { userId } = await signUp(auth);
      const answer = await auth.call<PublicUser>('GET', `/api/users/${userId}`);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.data).sort()).toEqual(
        ['avatar', 'bio', 'created_at', 'education', 'gender', 'id', 'interests', 'location', 'major', 'mbti', 'nickname', 'user_id', 'verified', 'zodiac_sign'].sort(),
      );
      expect(answer.text).not.toMatch(/argon2|password|hash|email/i);
    });

    it('answers 404 for an unknown user', async () => {
      expect((await auth.call('GET', '/api/users/nobody_here')).body).toEqual({ code: 404, message: '用户不存在', data: null });
    });

    it('lets the owner edit the profile, stores interests as an array and announces what others show', async () => {
      const { userId, tokens, user } = await signUp(auth);
      const answer = await auth.call<PublicUser>('PUT', `/api/users/${userId}`, {
        token: tokens.access_token,
        body: { nickname: '改个名字', bio: '热爱摄影', major: '计算机科学与技术', gender: '女', zodiac_sign: '天秤座', mbti: 'infp', education: '本科', interests: '摄影, 徒步,读书', avatar: '/api/files/avatars/a.jpg', password_hash: 'x' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('更新成功');
      expect(answer.body.data).toMatchObject({ nickname: '改个名字', bio: '热爱摄影', major: '计算机科学与技术', gender: '女', zodiac_sign: '天秤座', mbti: 'INFP', education: '本科', interests: ['摄影', '徒步', '读书'] });
      const tags = await auth.call('GET', `/api/users/${userId}/personality-tags`);
      expect(tags.body.data).toEqual({ gender: '女', zodiac_sign: '天秤座', mbti: 'INFP', education: '本科', major: '计算机科学与技术', interests: ['摄影', '徒步', '读书'] });
      expect(await events('user.updated')).toContainEqual({
        user: { id: user.id, user_id: userId, nickname: '改个名字', avatar: '/api/files/avatars/a.jpg', bio: '热爱摄影', location: user.location, verified: 0 },
      });
    });

    it('stores 暂不设置 (an empty gender) as not set, null, and answers it so', async () => {
      const { userId, tokens } = await signUp(auth);
      await auth.call('PUT', `/api/users/${userId}`, { token: tokens.access_token, body: { gender: '男' } });
      const answer = await auth.call<PublicUser>('PUT', `/api/users/${userId}`, { token: tokens.access_token, body: { gender: '' } });
      expect(answer.body.data.gender).toBeNull();
      expect((await auth.call<PublicUser>('GET', `/api/users/${userId}`)).body.data.gender).toBeNull();
      expect((await auth.call<{ gender: string | null }>('GET', `/api/users/${userId}/personality-tags`)).body.data.gender).toBeNull();
    });

    it('accepts interests as a JSON array string', async () => {
      const { userId, tokens } = await signUp(auth);
      const answer = await auth.call<PublicUser>('PUT', `/api/users/${userId}`, { token: tokens.access_token, body: { interests: '["篮球","音乐"]' } });
      expect(answer.body.data.interests).toEqual(['篮球', '音乐']);
    });

    it('refuses to edit someone else’s profile with 403', async () => {
      const owner = await signUp(auth);
      const other = await signUp(auth);
      const answer = await auth.call('PUT', `/api/users/${owner.userId}`, { token: other.tokens.access_token, body: { nickname: '冒名顶替' } });
      expect(answer.body).toEqual({ code: 403, message: '禁止访问', data: null });
      expect((await auth.call<PublicUser>('GET', `/api/users/${owner.userId}`)).body.data.nickname).toBe('测试同学');
    });

    it('refuses to edit without signing in', async () => {
      const { userId } = await signUp(auth);
      expect((await auth.call('PUT', `/api/users/${userId}`, { body: { nickname: '匿名' } })).status).toBe(401);
    });

    it.each([
      [{ nickname: '一二三四五六七八九十一' }, '昵称长度为2-10个字符'],
      [{ nickname: '' }, '请输入昵称'],
      [{ nickname: '\u200b\u200b\u200b' }, '昵称不能只包含空白或不可见字符'],
      [{ nickname: '\u3164\u3164' }, '昵称不能只包含空白或不可见字符'],
      [{ nickname: '\u0001\u0002\u0003' }, '请输入昵称'],
      [{ bio: '字'.repeat(201) }, '个人简介最多200个字符'],
      [{ major: '一二三四五六七八九十一二' }, '专业最多11个字符'],
      [{ gender: '未知' }, '性别只能是男、女或保密'],
      [{ zodiac_sign: '蛇夫座' }, '星座不正确'],
      [{ mbti: 'ABCD' }, 'MBTI 格式不正确'],
      [{ education: '小学' }, '学历不正确'],
      [{ interests: ['一', '二', '三', '四', '五', '六'] }, '兴趣爱好最多5个'],
      [{ interests: ['读书', '读书'] }, '兴趣爱好不能重复'],
      [{ interests: ['一二三四五六七八九'] }, '每个兴趣爱好最多8个字符'],
      [{ avatar: 'javascript:alert(1)' }, '头像必须是已上传的图片'],
      [{ avatar: 'https://evil.example/x.png' }, '头像必须是已上传的图片'],
    ])('refuses %j with 400 and changes nothing', async (change, message) => {
      const { userId, tokens } = await signUp(auth);
      const answer = await auth.call('PUT', `/api/users/${userId}`, { token: tokens.access_token, body: change });
      expect(answer.body).toEqual({ code: 400, message, data: null });
      expect((await auth.call<PublicUser>('GET', `/api/users/${userId}`)).body.data).toMatchObject({ nickname: '测试同学', bio: '用户没有任何简介', interests: [] });
    });
  });

  it('strips control characters from plain-text fields', async () => {
    const { userId, tokens } = await signUp(auth, { nickname: '控\u0007制\u001b' });
    const answer = await auth.call<PublicUser>('PUT', `/api/users/${userId}`, {
      token: tokens.access_token,
      body: { bio: '第一行\u0008\n第二行\u009b', major: '\u200e计算机\u0085', interests: ['读\u0007书'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ nickname: '控制', bio: '第一行\n第二行', major: '\u200e计算机', interests: ['读书'] });
  });

  it('refuses a registration whose nickname shows nothing', async () => {
    const answer = await auth.call('POST', '/api/auth/register', {
      body: { user_id: `blank_${Date.now().toString(36)}`.slice(0, 15), nickname: '\u2800\u2800\u2800', password: 'secret-123', ...(await auth.captcha()) },
    });
    expect(answer.body).toEqual({ code: 400, message: '昵称不能只包含空白或不可见字符', data: null });
  });

  describe('search', () => {
    it('finds users by nickname or product ID, exact matches first, without private fields', async () => {
      const target = await signUp(auth, { nickname: '搜索目标甲' });
      await signUp(auth, { nickname: '搜索目标乙' });
      const byNickname = await auth.call<{ users: PublicUser[] }>('GET', `/api/users/search?keyword=${encodeURIComponent('搜索目标')}`);
      expect(byNickname.body.data.users.map((u) => u.nickname).sort()).toEqual(['搜索目标乙', '搜索目标甲']);
      const byId = await auth.call<{ users: PublicUser[] }>('GET', `/api/users/search?keyword=${target.userId}`);
      expect(byId.body.data.users[0].user_id).toBe(target.userId);
      expect(byId.text).not.toMatch(/argon2|password/i);
      const limited = await auth.call<{ users: PublicUser[] }>('GET', `/api/users/search?keyword=${encodeURIComponent('搜索目标')}&limit=1`);
      expect(limited.body.data.users).toHaveLength(1);
    });

    it('treats % and _ as plain characters and needs a keyword', async () => {
      expect((await auth.call<{ users: PublicUser[] }>('GET', '/api/users/search?keyword=%25%25%25')).body.data.users).toEqual([]);
      expect((await auth.call('GET', '/api/users/search')).body).toEqual({ code: 400, message: '请输入搜索关键词', data: null });
    });
  });

  describe('password', () => {
    it('changes the password and signs out the other devices, keeping this one', async () => {
      const { userId, password, tokens } = await signUp(auth);
      const laptop = await auth.call<{ tokens: Tokens }>('POST', '/api/auth/login', { body: { user_id: userId, password } });
      const answer = await auth.call('PUT', `/api/users/${userId}/password`, { token: tokens.access_token, body: { currentPassword: password, newPassword: 'brand-new-1' } });
      expect(answer.body).toEqual({ code: 200, message: '密码修改成功', data: null });
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password } })).status).toBe(401);
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password: 'brand-new-1' } })).status).toBe(200);
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: laptop.body.data.tokens.refresh_token } })).status).toBe(401);
      expect((await auth.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(200);
    });

    it('refuses a wrong current password and an unchanged one with the spec wording', async () => {
      const { userId, password, tokens } = await signUp(auth);
      const wrong = await auth.call('PUT', `/api/users/${userId}/password`, { token: tokens.access_token, body: { currentPassword: 'not-mine', newPassword: 'brand-new-1' } });
      expect(wrong.body).toEqual({ code: 400, message: '当前密码错误', data: null });
      const same = await auth.call('PUT', `/api/users/${userId}/password`, { token: tokens.access_token, body: { currentPassword: password, newPassword: password } });
      expect(same.body).toEqual({ code: 400, message: '新密码不能与当前密码相同', data: null });
      const short = await auth.call('PUT', `/api/users/${userId}/password`, { token: tokens.access_token, body: { currentPassword: password, newPassword: '123' } });
      expect(short.body).toEqual({ code: 400, message: '新密码至少需要6位', data: null });
    });

    it('refuses to change someone else’s password', async () => {
      const owner = await signUp(auth);
      const other = await signUp(auth);
      const answer = await auth.call('PUT', `/api/users/${owner.userId}/password`, { token: other.tokens.access_token, body: { currentPassword: other.password, newPassword: 'brand-new-1' } });
      expect(answer.status).toBe(403);
    });
  });

  describe('account deletion', () => {
    it('removes the account, its sessions, and tells every other service', async () => {
      const { userId, password, tokens, user } = await signUp(auth);
      expect((await auth.call('DELETE', `/api/users/${userId}`, { token: tokens.access_token })).body).toEqual({ code: 200, message: '账号已注销', data: null });
      expect((await auth.call('GET', `/api/users/${userId}`)).status).toBe(404);
      expect((await auth.call('POST', '/api/auth/login', { body: { user_id: userId, password } })).status).toBe(401);
      expect((await auth.call('POST', '/api/auth/refresh', { body: { refresh_token: tokens.refresh_token } })).status).toBe(401);
      expect(await events('user.deleted')).toContainEqual({ id: user.id, user_id: userId });
    });

    it('refuses to delete someone else’s account', async () => {
      const owner = await signUp(auth);
      const other = await signUp(auth);
      expect((await auth.call('DELETE', `/api/users/${owner.userId}`, { token: other.tokens.access_token })).status).toBe(403);
      expect((await auth.call('GET', `/api/users/${owner.userId}`)).status).toBe(200);
    });
  });
});
