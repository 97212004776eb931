import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
// The browser drives the same embedded product the gateway's own tests start.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type ProductStack, startProductStack } from '../../gateway/test/product-stack';

const SHOTS = join(__dirname, '../../../tmp/screenshots');
/** Answers one test provokes on purpose (cleared after each test). */
const provoked: RegExp[] = [];

let stack: ProductStack;
let browser: Browser;
const problems: string[] = [];

async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (!/ERR_ABORTED/.test(reason)) problems.push(`request failed: ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !provoked.some((pattern) => pattern.test(new URL(response.url()).pathname))) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return page;
}

const newContext = (width: number, extra: Parameters<Browser['newContext']>[0] = {}) =>
  browser.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress }, ...extra });

/** An administrator's stored session, as the login screen leaves it. */
async function adminSession(): Promise<[string, string, string]> {
  const login = await stack.call<{ admin: unknown; tokens: { access_token: string; refresh_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword });
  expect(login.status).toBe(200);
  return [login.body.data.tokens.access_token, login.body.data.tokens.refresh_token, JSON.stringify(login.body.data.admin)];
}

async function signedInContext(width: number, theme: 'light' | 'dark' = 'light'): Promise<BrowserContext> {
  const context = await newContext(width, width < 500 ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {});
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

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // No demo data: the console's tests make what they look at, and the product starts in a fraction of the time.
  [stack, browser] = await Promise.all([startProductStack('embedded'), chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

afterEach(() => {
  provoked.length = 0;
  expect(problems.splice(0)).toEqual([]);
});

describe('the admin console against the embedded product', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await newContext(1440);
    page = await open(context);
  });
  afterAll(() => context?.close());

  it('sends a visitor without an admin token to the login, which checks its fields and signs in', async () => {
    provoked.push(/\/api\/auth\/admin\/login$/);
    await page.goto('/admin');
    await page.waitForURL('**/admin/login?redirect=%2Fadmin');
    await page.locator('.toast', { hasText: '登录已过期，请重新登录' }).waitFor();
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('请输入用户名').waitFor();
    await page.getByText('请输入密码').waitFor();
    await page.getByLabel('用户名').fill('a');
    await page.getByLabel('密码').fill('12345');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByText('用户名至少需要2位').waitFor();
    await page.getByText('密码至少需要6位').waitFor();
    await page.screenshot({ path: join(SHOTS, 'admin-login-1440.png') });
    await page.getByLabel('用户名').fill('admin');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.locator('.toast', { hasText: '登录失败，请检查用户名和密码' }).waitFor();
    await page.getByLabel('密码').fill(stack.adminPassword);
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
    await page.screenshot({ path: join(SHOTS, 'admin-docs-1440.png') });

    await page.mouse.wheel(0, 1500);
    await page.locator('.api-search[data-stuck="true"]').waitFor();
    const search = page.getByRole('searchbox', { name: '搜索接口' });
    await search.fill('monitor');
    await page.locator('.api-endpoint[data-path="/api/admin/monitor/activities"] mark', { hasText: 'monitor' }).waitFor();
    expect(await page.locator('.api-endpoint').count()).toBe(1);
    expect(await page.locator('.api-endpoint .api-auth').textContent()).toBe('需要认证');
    await page.screenshot({ path: join(SHOTS, 'admin-docs-search-1440.png') });
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
    const newcomer = await stack.signUp('监控里的新同学');
    const item = page.locator('.activity[data-type="user_register"]', { hasText: '监控里的新同学' });
    await item.waitFor({ timeout: 20_000 });
    expect(await item.getAttribute('href')).toBe(`/user/${newcomer.userId}`);
    await item.locator('.activity-type', { hasText: '用户注册' }).waitFor();
    await item.locator('.activity-time', { hasText: '刚刚' }).waitFor();
    await page.waitForFunction(([selector, expected]) => Number(document.querySelector(selector)?.textContent) >= expected, ['[data-testid="count-user_register"]', before + 1] as const);
    await page.screenshot({ path: join(SHOTS, 'admin-monitor-1440.png') });
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
    await page.screenshot({ path: join(SHOTS, 'admin-table-1440.png') });

    await row.getByRole('button', { name: '编辑' }).click();
    expect(await form.getByLabel('用户名').isDisabled()).toBe(true);
    await form.getByLabel('密码').fill('secret-789');
    await form.getByRole('button', { name: '保存' }).click();
    await page.locator('.toast', { hasText: '管理员更新成功' }).waitFor();
    const relogin = await stack.call('POST', '/api/auth/admin/login', { username: 'ops_tester', password: 'secret-789' });
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
    await page.waitForURL('**/admin/login');
    expect(await page.evaluate(() => localStorage.getItem('admin_token'))).toBeNull();
  });
});

describe('the guard', () => {
  it("sends a student's token opening /admin to /admin/login", async () => {
    const student = await stack.signUp('想进后台的同学');
    const context = await newContext(1440);
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
  it('shows the login, a table, the monitor and the docs', async () => {
    for (const width of [375, 1440]) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await signedInContext(width, theme);
        const page = await open(context);
        const suffix = `${width}${theme === 'dark' ? '-dark' : ''}`;
        await page.goto('/admin/api-docs');
        await page.locator('.api-endpoint').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `admin-docs-${suffix}.png`) });
        await page.goto('/admin/monitor');
        await page.locator('.activity').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `admin-monitor-${suffix}.png`) });
        await page.goto('/admin/admins');
        await page.locator('tbody tr').first().waitFor();
        await page.screenshot({ path: join(SHOTS, `admin-table-${suffix}.png`) });
        await page.goto('/admin/login');
        await page.getByLabel('用户名').waitFor();
        await page.screenshot({ path: join(SHOTS, `admin-login-${suffix}.png`) });
        await context.close();
      }
    }
  });
});
