import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type StackUser, waitFor } from '../../gateway/test/product-stack';
import { browserSuite, PHONE } from './browser-kit';

// The browser drives the same embedded product the gateway's own tests start. No demo data: the console's tests make
// what they look at, and the product starts in a fraction of the time.
const suite = browserSuite({ mode: 'embedded' });
const { open, provoked, shot, ok } = suite;

/** An administrator's stored session, as the login screen leaves it. */
async function adminSession(): Promise<[string, string, string]> {
  const login = await suite.stack().call<{ admin: unknown; tokens: { access_token: string; refresh_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: suite.stack().adminPassword });
  expect(login.status).toBe(200);
  return [login.body.data.tokens.access_token, login.body.data.tokens.refresh_token, JSON.stringify(login.body.data.admin)];
}

async function signedInContext(width: number, theme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  const context = await suite.context(width, width < 500 ? PHONE : {});
  await context.addInitScript(
    ([token, refresh, info, mode]) => {
      localStorage.setItem('admin_token', token);
      localStorage.setItem('admin_refresh_token', refresh);
      localStorage.setItem('admin_info', info);
      localStorage.setItem('theme', mode);
    },
    [...(await adminSession()), theme] as const,
  );
  return context;
}

describe('the admin console against the embedded product', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await suite.context(1440);
    page = await open(context);
  });
  afterAll(() => context?.close());

  it('sends a visitor without an admin token to the login, which checks its fields and signs in', async () => {
    provoked.push(/\/api\/auth\/admin\/login$/);
    await page.goto('/admin');
    await page.waitForURL('**/admin/login?redirect=%2Fadmin');
    // Nobody was logged in: nothing has expired.
    await page.getByRole('button', { name: '登录', exact: true }).waitFor();
    expect(await page.locator('.toast').count()).toBe(0);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByText('请输入密码').waitFor();
    await page.getByLabel('用户名').fill('a');
    await page.getByLabel('密码').fill('12345');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('用户名至少需要2位').waitFor();
    await page.getByText('密码至少需要6位').waitFor();
    await page.screenshot({ path: shot('admin-login-1440.png') });
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('.toast', { hasText: '登录失败，请检查用户名和密码' }).waitFor();
    await page.getByLabel('密码').fill(suite.stack().adminPassword);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('.toast', { hasText: '登录成功，正在跳转...' }).waitFor();
    await page.waitForURL('**/admin/api-docs');
    expect(await page.evaluate(() => [localStorage.getItem('admin_token') !== null, localStorage.getItem('admin_refresh_token') !== null, JSON.parse(localStorage.getItem('admin_info')!).username])).toEqual([true, true, 'admin']);
    await page.locator('.admin-sidebar').getByRole('link', { name: '认证管理' }).waitFor();
  });

  it('searches the API docs page, highlighting matches, with the search box stuck after 1000 px', async () => {
    await page.locator('.api-group').first().waitFor();
    await page.getByText('v1.2.0').waitFor();
    await page.getByText('2024-09-28').waitFor();
    const groups = await page.locator('.api-group').count();
    expect(groups).toBeGreaterThan(5);
    const first = page.locator('.api-group-head').first();
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('false');
    await first.click();
    expect(await first.getAttribute('aria-expanded')).toBe('true');
    await page.screenshot({ path: shot('admin-docs-1440.png') });

    await page.mouse.wheel(0, 1500);
    await page.locator('.api-search[data-stuck="true"]').waitFor();
    const search = page.getByRole('searchbox', { name: '搜索接口' });
    // The monitor has two operations (activities and the administrators' log); this word names only one.
    await search.fill('activities');
    await page.locator('.api-endpoint[data-path="/api/admin/monitor/activities"] mark', { hasText: 'activities' }).waitFor();
    expect(await page.locator('.api-endpoint').count()).toBe(1);
    expect(await page.locator('.api-endpoint .api-auth').textContent()).toBe('需要认证');
    await page.screenshot({ path: shot('admin-docs-search-1440.png') });
    await search.fill('没有这样的接口');
    await page.getByText('未找到匹配的接口').waitFor();
    await search.fill('');
    await page.locator('.api-group').nth(groups - 1).waitFor();
  });

  it('shows a new registration in the monitor without reload, and counts it', async () => {
    await page.locator('.admin-sidebar').getByRole('link', { name: '动态监控' }).click();
    await page.waitForURL('**/admin/monitor');
    await page.locator('.monitor-list').getByText('暂无动态').waitFor();
    const count = page.getByTestId('count-user_register');
    const before = Number(await count.textContent());
    const newcomer = await suite.stack().signUp('监控里的新同学');
    const item = page.locator('.activity[data-type="user_register"]', { hasText: '监控里的新同学' });
    await item.waitFor({ timeout: 20_000 });
    expect(await item.getAttribute('href')).toBe(`/user/${newcomer.userId}`);
    await item.locator('.activity-type', { hasText: '用户注册' }).waitFor();
    await item.locator('.activity-time', { hasText: '刚刚' }).waitFor();
    await page.waitForFunction(([selector, expected]) => Number(document.querySelector(selector)?.textContent) >= expected, ['[data-testid="count-user_register"]', before + 1] as const);
    await page.screenshot({ path: shot('admin-monitor-1440.png') });
  });

  it('creates, edits and deletes an administrator through the generic table', async () => {
    await page.locator('.admin-sidebar').getByRole('link', { name: '管理员' }).click();
    await page.waitForURL('**/admin/admins');
    await page.locator('tr', { hasText: 'admin' }).first().waitFor();
    await page.getByRole('button', { name: '新增' }).click();
    const form = page.locator('.admin-form-modal');
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByText('请输入用户名').waitFor();
    await form.getByText('请输入密码').waitFor();
    await form.getByLabel('用户名').fill('ops_tester');
    await form.getByLabel('密码').fill('secret-456');
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '管理员创建成功' }).waitFor();
    const row = page.locator('tbody tr', { hasText: 'ops_tester' });
    await row.waitFor();
    await page.getByRole('button', { name: '用户名降序' }).click();
    await page.waitForFunction(() => document.querySelector('tbody tr td[data-column="username"]')?.textContent === 'ops_tester');
    await page.getByRole('search').getByLabel('用户名').fill('ops_');
    await page.getByRole('search').getByRole('button', { name: '筛选' }).click();
    await page.getByText('共 1 条记录').waitFor();
    await page.getByRole('search').getByRole('button', { name: '清空' }).click();
    await page.getByText('共 2 条记录').waitFor();
    await page.screenshot({ path: shot('admin-table-1440.png') });

    await row.getByRole('button', { name: '编辑' }).click();
    expect(await form.getByLabel('用户名').isDisabled()).toBe(true);
    await form.getByLabel('密码').fill('secret-789');
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '管理员更新成功' }).waitFor();
    const relogin = await suite.stack().call('POST', '/api/auth/admin/login', { username: 'ops_tester', password: 'secret-789' });
    expect(relogin.status).toBe(200);

    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByRole('button', { name: '确认删除 (0)' }).click();
    await page.locator('.toast', { hasText: '请选择要删除的项目' }).waitFor();
    await page.getByRole('button', { name: '取消' }).click();

    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.confirm', { hasText: '确定要删除管理员「ops_tester」吗？' }).getByRole('button', { name: '删除' }).click();
    await page.locator('.toast', { hasText: '删除成功' }).waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('switches the theme and logs out after a confirmation', async () => {
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const before = await theme();
    await page.locator('.admin-header').getByRole('button', { name: before === 'dark' ? '切换到浅色模式' : '切换到深色模式' }).click();
    await page.waitForFunction((was) => document.documentElement.dataset.theme !== was, before);
    await page.locator('.admin-header').getByRole('button', { name: before === 'dark' ? '切换到深色模式' : '切换到浅色模式' }).click();
    await page.waitForFunction((was) => document.documentElement.dataset.theme === was, before);
    await page.getByRole('button', { name: '退出登录' }).click();
    await page.locator('.confirm', { hasText: '确定要退出管理后台吗？' }).getByRole('button', { name: '退出' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/login' && url.search === '');
    await page.locator('.toast', { hasText: '已退出登录' }).waitFor();
    expect(await page.locator('.toast', { hasText: '登录已过期' }).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  });
});

/** A published image note by the given student. */
async function publish(title: string, by: StackUser): Promise<number> {
  const key = `images/admin-browser/${randomUUID()}.png`;
  await suite.stack().storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 60 } } }).png().toBuffer(), 'image/png');
  return (await ok<{ id: number }>('POST', '/api/posts', { title, content: '<p>正文</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['后台'] }, by.token)).id;
}

/** The row ids the table shows, top to bottom, once they are exactly the expected ones. */
const rowsToBe = (page: Page, ids: Array<number | string>) =>
  page.waitForFunction((expected) => JSON.stringify(Array.from(document.querySelectorAll('tbody tr')).map((row) => row.getAttribute('data-row-id'))) === expected, JSON.stringify(ids.map(String)));

describe('managing the product as an administrator', () => {
  let context: BrowserContext;
  let page: Page;
  let author: StackUser;
  let note: number;

  beforeAll(async () => {
    context = await signedInContext(1440);
    page = await open(context);
    author = await suite.stack().signUp('后台作者');
    note = await publish('待修改的笔记', author);
  });
  afterAll(() => context?.close());

  it('filters the users table by keyword and sorts it by 小石榴号 both ways', async () => {
    const students = [await suite.stack().signUp('排序同学甲'), await suite.stack().signUp('排序同学乙'), await suite.stack().signUp('排序同学丙')];
    const byUserId = [...students].sort((a, b) => (a.userId < b.userId ? -1 : 1)).map((student) => student.id);
    await page.goto('/admin/users');
    await page.locator('tbody tr').first().waitFor();
    await page.getByRole('search').getByLabel('关键词').fill('排序同学');
    await page.getByRole('search').getByRole('button', { name: '筛选' }).click();
    await rowsToBe(page, [...students].reverse().map((student) => student.id));
    await page.getByText('共 3 条记录').waitFor();
    await page.getByRole('button', { name: '小石榴号升序' }).click();
    await rowsToBe(page, byUserId);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('小石榴号');
    await page.getByRole('button', { name: '小石榴号降序' }).click();
    await rowsToBe(page, [...byUserId].reverse());
    await page.screenshot({ path: shot('admin-users-filtered-1440.png') });
    await page.getByRole('search').getByRole('button', { name: '清空' }).click();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length > 3);
  });

  it('edits a note from the posts table, and the public side shows the change', async () => {
    await page.goto('/admin/posts');
    const row = page.locator(`tbody tr[data-row-id="${note}"]`);
    await row.locator('td[data-column="title"]', { hasText: '待修改的笔记' }).waitFor();
    await row.getByRole('button', { name: '编辑' }).click();
    const form = page.locator('.admin-form-modal');
    expect(await form.getByLabel('作者小石榴号').inputValue()).toBe(author.userId);
    await form.getByLabel('标题').fill('后台改过的标题');
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '笔记更新成功' }).waitFor();
    await row.locator('td[data-column="title"]', { hasText: '后台改过的标题' }).waitFor();
    const shown = await ok<{ title: string; images: unknown[]; tags: unknown[] }>('GET', `/api/posts/${note}`);
    expect([shown.title, shown.images.length, shown.tags.length]).toEqual(['后台改过的标题', 1, 1]);
  });

  it('uploads a user\'s avatar from the edit form with the administrator\'s token, and the public profile shows it', async () => {
    await page.goto('/admin/users');
    await page.getByRole('search').getByLabel('小石榴号').fill(author.userId);
    await page.getByRole('search').getByRole('button', { name: '筛选' }).click();
    const row = page.locator(`tbody tr[data-row-id="${author.id}"]`);
    await row.waitFor();
    await row.getByRole('button', { name: '编辑' }).click();
    const form = page.locator('.admin-form-modal');
    const avatar = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 30, g: 140, b: 90 } } }).png().toBuffer();
    await form.locator('.admin-upload-row input[type="file"]').first().setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: avatar });
    await page.waitForFunction(() => /^\/api\/files\/images\//.test((document.querySelector('#admin-field-avatar') as HTMLInputElement | null)?.value ?? ''));
    await form.locator('.admin-upload-preview').waitFor();
    const uploaded = await form.getByLabel('头像地址').inputValue();
    await page.screenshot({ path: shot('admin-user-avatar-upload-1440.png') });
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '用户更新成功' }).waitFor();
    expect((await ok<{ avatar: string }>('GET', `/api/users/${author.userId}`)).avatar).toBe(uploaded);
  });

  it('moves a follow from the follows table\'s edit form, and the counters of both users followed move with it', async () => {
    const [fan, first, second] = [await suite.stack().signUp('关注者'), await suite.stack().signUp('原被关注者'), await suite.stack().signUp('新被关注者')];
    const [token] = await adminSession();
    const fans = async (user: StackUser) => (await ok<{ fans_count: number }>('GET', `/api/users/${user.userId}/stats`)).fans_count;
    // Social learns of new students through events: the follow is made once it knows all three.
    const follow = await waitFor('social to know the three students', async () => {
      if ((await suite.stack().call('GET', `/api/users/${second.userId}/stats`)).status !== 200) return null;
      const made = await suite.stack().call<{ id: number }>('POST', '/api/admin/follows', { follower_id: fan.userId, following_id: first.userId }, token);
      return made.status === 200 ? made.body.data : null;
    });
    await page.goto('/admin/follows');
    const row = page.locator(`tbody tr[data-row-id="${follow.id}"]`);
    await row.getByRole('button', { name: '编辑' }).click();
    const form = page.locator('.admin-form-modal');
    const [follower, following] = [form.locator('#admin-field-follower_id'), form.locator('#admin-field-following_id')];
    expect([await follower.inputValue(), await following.inputValue()]).toEqual([fan.userId, first.userId]);
    await following.fill(second.userId);
    await page.screenshot({ path: shot('admin-follow-edit-1440.png') });
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '关注更新成功' }).waitFor();
    await page.locator('tbody tr td', { hasText: '新被关注者' }).first().waitFor();
    expect([await fans(first), await fans(second)]).toEqual([0, 1]);
  });

  it('deletes two comments at once in batch mode', async () => {
    const fan = await suite.stack().signUp('后台评论者');
    const [first, second, kept] = await Promise.all(['第一条评论', '第二条评论', '留下的评论'].map((content) => ok<{ id: number }>('POST', '/api/comments', { post_id: note, content }, fan.token)));
    await page.goto('/admin/comments');
    await page.locator(`tbody tr[data-row-id="${kept.id}"]`).waitFor();
    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByRole('checkbox', { name: `选择 ${first.id}` }).check();
    await page.getByRole('checkbox', { name: `选择 ${second.id}` }).check();
    await page.getByText('已选择 2 项').waitFor();
    await page.getByRole('button', { name: '确认删除 (2)' }).click();
    await page.locator('.confirm', { hasText: '确定要删除选中的 2 个评论吗？' }).getByRole('button', { name: '删除' }).click();
    await page.locator('.toast', { hasText: '已删除 2 个评论' }).waitFor();
    await page.locator(`tbody tr[data-row-id="${first.id}"]`).waitFor({ state: 'detached' });
    await page.locator(`tbody tr[data-row-id="${second.id}"]`).waitFor({ state: 'detached' });
    await page.locator(`tbody tr[data-row-id="${kept.id}"]`).waitFor();
    const left = await ok<{ data: Array<{ id: number }> }>('GET', `/api/admin/comments?post_id=${note}`, undefined, (await adminSession())[0]);
    expect(left.data.map((comment) => Number(comment.id))).toEqual([Number(kept.id)]);
  });

  it('approves one verification application and rejects another with a reason', async () => {
    const [approved, rejected] = [await suite.stack().signUp('认证通过者'), await suite.stack().signUp('认证被拒者')];
    for (const [student, name] of [
      [approved, '张通过'],
      [rejected, '李被拒'],
    ] as const) {
      await ok('POST', '/api/users/verification', { type: 2, content: { real_name: name, id_card: '11010519900307123X', occupation: '学生', reason: '校园博主' } }, student.token);
    }
    await page.goto('/admin/audit');
    const approvedRow = page.locator('tbody tr', { hasText: '认证通过者' });
    const rejectedRow = page.locator('tbody tr', { hasText: '认证被拒者' });
    await approvedRow.locator('td[data-column="status"]', { hasText: '待审核' }).waitFor();
    expect(await approvedRow.locator('td[data-column="content"]').textContent()).toMatch(/^(申请理由|真实姓名|身份证号|职业)：/);
    await page.screenshot({ path: shot('admin-audit-1440.png') });
    await approvedRow.getByRole('button', { name: '通过' }).click();
    await page.locator('.toast', { hasText: '审核通过' }).waitFor();
    await approvedRow.locator('td[data-column="status"]', { hasText: '已通过' }).waitFor();

    await rejectedRow.getByRole('button', { name: '拒绝' }).click();
    const ask = page.getByRole('dialog', { name: '拒绝「认证被拒者」的认证申请' });
    await ask.getByRole('button', { name: '确定' }).click();
    await ask.getByText('请输入拒绝原因').waitFor();
    await ask.getByLabel('拒绝原因').fill('证件照片不清晰');
    await ask.getByRole('button', { name: '确定' }).click();
    await page.locator('.toast', { hasText: '已拒绝' }).waitFor();
    await rejectedRow.locator('td[data-column="status"]', { hasText: '已拒绝' }).waitFor();
    await rejectedRow.locator('td[data-column="reject_reason"]', { hasText: '证件照片不清晰' }).waitFor();

    expect((await ok<{ verified: number }>('GET', `/api/users/${approved.userId}`)).verified).toBe(2);
    expect((await ok<{ verified: number }>('GET', `/api/users/${rejected.userId}`)).verified).toBe(0);
    const status = await ok<{ status: number; reject_reason: string | null }[]>('GET', '/api/users/verification/status', undefined, rejected.token);
    expect(status.map((application) => [application.status, application.reject_reason])).toEqual([[2, '证件照片不清晰']]);
  });

  it('keeps the 违禁词 list from its page: adds several words at once, finds one, deletes it, and students meet each change', async () => {
    const student = await suite.stack().signUp('守规矩的同学');
    const bio = async (text: string) => (await suite.stack().call('PUT', `/api/users/${student.userId}`, { bio: text }, student.token)).body.message;
    await page.locator('.admin-sidebar').getByRole('link', { name: '违禁词' }).click();
    await page.waitForURL('**/admin/banned-words');
    await page.locator('tbody tr', { hasText: '代开发票' }).waitFor();
    await page.getByRole('button', { name: '新增' }).click();
    const form = page.locator('.admin-form-modal');
    await form.getByRole('button', { name: '保存' }).click();
    await form.getByText('请输入违禁词').waitFor();
    await form.getByLabel('违禁词').fill('代写论文\nＦＡＫＥ  ID');
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '违禁词创建成功' }).waitFor();
    const row = page.locator('tbody tr', { hasText: '代写论文' });
    await row.waitFor();
    await page.locator('tbody tr', { hasText: 'fakeid' }).waitFor();
    await waitFor('the new words to be refused', async () => (await bio('找我代 写论文')) === '内容包含违规词汇' && (await bio('fake id')) === '内容包含违规词汇', 20_000, 100);

    await page.getByRole('search').getByLabel('关键词').fill('论文');
    await page.getByRole('search').getByRole('button', { name: '筛选' }).click();
    await page.getByText('共 1 条记录').waitFor();
    await page.screenshot({ path: shot('admin-banned-words-1440.png') });
    await row.getByRole('button', { name: '删除' }).click();
    await page.locator('.confirm', { hasText: '确定要删除违禁词「代写论文」吗？' }).getByRole('button', { name: '删除' }).click();
    await page.locator('.toast', { hasText: '删除成功' }).waitFor();
    await row.waitFor({ state: 'detached' });
    await waitFor('the removed word to be accepted', async () => (await bio('找我代写论文')) !== '内容包含违规词汇', 20_000, 100);
  });
});

describe('the guard', () => {
  it("sends a student's token opening /admin to /admin/login", async () => {
    const student = await suite.stack().signUp('想进后台的同学');
    const context = await suite.context(1440);
    const page = await open(context);
    await page.goto('/explore');
    await page.evaluate((token) => {
      localStorage.setItem('token', token);
      localStorage.setItem('admin_token', token);
    }, student.token);
    await page.goto('/admin/users');
    await page.waitForURL('**/admin/login?redirect=%2Fadmin%2Fusers');
    await page.locator('.toast', { hasText: '登录已过期，请重新登录' }).waitFor();
    expect(await page.evaluate(() => [localStorage.getItem('admin_token'), localStorage.getItem('token') !== null])).toEqual([null, true]);
    await context.close();
  });
});

describe('at 375 and 1440 px, light and dark', () => {
  it('shows the login, a table, a form with uploads, the monitor and the docs', async () => {
    for (const width of [375, 1440]) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await signedInContext(width, theme);
        const page = await open(context);
        const suffix = `${width}${theme === 'dark' ? '-dark' : ''}`;
        await page.goto('/admin/api-docs');
        await page.locator('.api-endpoint').first().waitFor();
        await page.screenshot({ path: shot(`admin-docs-${suffix}.png`) });
        await page.goto('/admin/monitor');
        await page.locator('.activity').first().waitFor();
        await page.screenshot({ path: shot(`admin-monitor-${suffix}.png`) });
        await page.goto('/admin/admins');
        await page.locator('tbody tr').first().waitFor();
        await page.screenshot({ path: shot(`admin-table-${suffix}.png`) });
        await page.goto('/admin/posts');
        await page.getByRole('button', { name: '新增' }).click();
        await page.locator('.admin-form-modal .admin-images').getByText('上传图片').waitFor();
        await page.locator('.admin-form-modal').getByRole('radio', { name: '视频' }).click();
        await page.locator('.admin-form-modal .admin-upload-row').getByText('上传视频').waitFor();
        await page.screenshot({ path: shot(`admin-post-form-${suffix}.png`) });
        await page.goto('/admin/login');
        await page.getByLabel('用户名').waitFor();
        await page.screenshot({ path: shot(`admin-login-${suffix}.png`) });
        await context.close();
      }
    }
  });
});
