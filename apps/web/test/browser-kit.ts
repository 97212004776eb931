import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type ProductStack, type RunMode, startProductStack } from '../../gateway/test/product-stack';

export const cards = (page: Page) => page.locator('article.card');

/** Where every browser spec leaves its screenshots. */
const SHOTS = join(__dirname, '../../../tmp/screenshots');

/**
 * How long a step may wait for the page. CI runs every suite in band on two cores with the product's processes and
 * Chromium beside the tests, where Playwright's own 30 s has run out on steps that take a second on a quiet machine;
 * a step that passes returns as soon as its condition holds, so only a failing one waits this long.
 */
const STEP_TIMEOUT = 60_000;

/**
 * A host name other than localhost that the suites' Chromium resolves to this machine (a campus server or a LAN host
 * as a phone reaches it), without touching /etc/hosts.
 */
export const OTHER_HOST = 'shiliu.test';

/** A phone as the suites hold one: twice the pixels, touch, the mobile viewport. */
export const PHONE: BrowserContextOptions = { deviceScaleFactor: 2, isMobile: true, hasTouch: true };

/** What a browser spec and the flows it runs share: the product, the browser, the recorder, screenshots. */
export interface BrowserSuite {
  stack: () => ProductStack;
  browser: () => Browser;
  /** A new page that records every problem into the suite's list, checked after each test. */
  open: (context: BrowserContext) => Promise<Page>;
  /** Answers a test provokes on purpose; cleared after each test. */
  provoked: RegExp[];
  /** Where a screenshot of this name goes (each run mode keeps its own). */
  shot: (name: string) => string;
  /** A browser context on the product, 812 px high below 500 px wide and 900 px above, claiming the stack's address. */
  context: (width: number, options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** The envelope's data of a call to the product that must succeed. */
  ok: <T>(method: string, path: string, body?: unknown, token?: string) => Promise<T>;
  /** A stored 600 × 800 picture of one colour under `images/<pictures>/`, as an upload leaves it; its URL. */
  picture: (background: string) => Promise<string>;
}

/**
 * Pages that record every uncaught error and every failed request or 4xx/5xx answer into `problems`, except the
 * answers `ignored()` matches at the time (a test may provoke some on purpose).
 */
function pageRecorder(ignored: () => RegExp[]) {
  const problems: string[] = [];
  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? '';
      if (!/ERR_ABORTED/.test(reason)) problems.push(`request failed: ${request.url()} ${reason}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !ignored().some((pattern) => pattern.test(new URL(response.url()).pathname))) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    return page;
  };
  return { problems, open };
}

/**
 * The set-up every browser spec shares, registered with Jest where it is called (at the top of a spec): the product
 * in the given run mode and Chromium started together and stopped after the file, and after each test the recorder's
 * list checked empty and the provoked answers cleared.
 */
export function browserSuite(options: { mode: RunMode; env?: NodeJS.ProcessEnv; deliberate?: RegExp[]; shotPrefix?: string; pictures?: string }): BrowserSuite {
  const { deliberate = [], shotPrefix = '', pictures = 'browser' } = options;
  let stack: ProductStack | undefined;
  let browser: Browser | undefined;
  const provoked: RegExp[] = [];
  const { problems, open } = pageRecorder(() => [...deliberate, ...provoked]);

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Each is kept as soon as it is there, and both are waited for, so that afterAll closes the one that started when the other failed.
    const started = await Promise.allSettled([
      startProductStack(options.mode, options.env).then((product) => {
        stack = product;
      }),
      chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', `--host-resolver-rules=MAP ${OTHER_HOST} 127.0.0.1`] }).then((launched) => {
        browser = launched;
      }),
    ]);
    for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  afterEach(() => {
    provoked.length = 0;
    expect(problems.splice(0)).toEqual([]);
  });

  return {
    stack: () => stack!,
    browser: () => browser!,
    open,
    provoked,
    shot: (name) => join(SHOTS, `${shotPrefix}${name}`),
    async context(width, extra = {}) {
      const context = await browser!.newContext({ viewport: { width, height: width < 500 ? 812 : 900 }, baseURL: stack!.base, extraHTTPHeaders: { 'X-Forwarded-For': stack!.clientAddress }, ...extra });
      context.setDefaultTimeout(STEP_TIMEOUT);
      return context;
    },
    async ok<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
      const answer = await stack!.call<T>(method, path, body, token);
      if (answer.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
      return answer.body.data;
    },
    async picture(background) {
      const key = `images/${pictures}/${randomUUID()}.png`;
      await stack!.storage.put(key, await sharp({ create: { width: 600, height: 800, channels: 3, background } }).png().toBuffer(), 'image/png');
      return `/api/files/${key}`;
    },
  };
}

/** Signs a registered student into a browser context through the stored session, as a login leaves it. */
export async function signInAs(stack: ProductStack, context: BrowserContext, user: { token: string }) {
  const me = await stack.call<unknown>('GET', '/api/auth/me', undefined, user.token);
  await context.addInitScript(
    ([token, info]) => {
      if (!localStorage.getItem('token')) {
        localStorage.setItem('token', token);
        localStorage.setItem('userInfo', info);
      }
    },
    [user.token, JSON.stringify(me.body.data)] as const,
  );
}

/** Logs in through the sidebar's dialog, which reloads the page, and waits for the signed-in sidebar. */
export async function logIn(page: Page, userId: string, password: string) {
  await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
  await page.getByLabel('小石榴号').fill(userId);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await Promise.all([page.waitForEvent('load'), page.locator('.auth-modal').getByRole('button', { name: '登录' }).click()]);
  await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();
}

/**
 * Registering through the dialog (a mismatched confirmation refused first, then the captcha), logging out and
 * logging in again, the same in both run modes; starts on a page with the signed-out sidebar and leaves it signed in.
 */
export async function registerLogOutAndLogIn(page: Page, captchaAnswer: string, account: { userId: string; nickname: string }) {
  await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
  await page.getByRole('button', { name: '立即注册' }).click();
  await page.getByLabel('小石榴号').fill(account.userId);
  await page.getByLabel('昵称').fill(account.nickname);
  await page.getByLabel('密码', { exact: true }).fill('secret123');
  await page.getByLabel('确认密码').fill('secret124');
  await page.getByRole('button', { name: '注册' }).click();
  await page.getByText('两次输入的密码不一致').waitFor();
  await page.getByLabel('确认密码').fill('secret123');
  await page.getByRole('button', { name: '注册' }).click();
  await page.getByLabel('验证码第1位').waitFor();
  for (const [index, char] of [...captchaAnswer].entries()) await page.getByLabel(`验证码第${index + 1}位`).fill(char);
  await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: '确定' }).click()]);
  await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();

  await page.locator('.sidebar').getByRole('button', { name: '更多' }).click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: '退出登录' }).click()]);
  await logIn(page, account.userId, 'secret123');
}

/** A touch gesture through the browser's own input, as a finger makes it: down, moves, up. */
export async function swipe(page: Page, from: { x: number; y: number }, by: { x: number; y: number }, steps = 8, beforeUp?: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let step = 1; step <= steps; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + (by.x * step) / steps, y: from.y + (by.y * step) / steps }] });
  }
  await beforeUp?.();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
