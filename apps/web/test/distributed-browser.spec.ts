import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
// The browser drives the product as the cluster runs it: every service in its own process behind the gateway.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type ProductStack, startProductStack } from '../../gateway/test/product-stack';
import { pageRecorder } from './browser-kit';
import { creatingAndFollowingUp } from './creating-flow';

/**
 * The browser flow through the distributed stack (Kafka between the services, files in MinIO, search in
 * Elasticsearch, the notification stream proxied by the gateway): signing up, a note seen in the feed, and the
 * whole of creating and following up (creating-flow.ts), which browser.spec.ts runs against the embedded product.
 */
const SHOTS = join(__dirname, '../../../tmp/screenshots');
/** The unread badge's call while notify is still starting. */
const DELIBERATE = [/\/api\/notifications\/unread-count$/];

let stack: ProductStack;
let browser: Browser;
/** Further answers one test provokes on purpose (cleared after each test). */
const provoked: RegExp[] = [];
const { problems, open } = pageRecorder(() => [...DELIBERATE, ...provoked]);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // One after the other: a browser launched beside a stack that fails to start would be left open.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  stack = await startProductStack('distributed');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

afterEach(() => {
  provoked.length = 0;
  expect(problems.splice(0)).toEqual([]);
});

describe('the web app through the distributed stack', () => {
  let context: BrowserContext;
  let page: Page;
  let noteId: number;
  const title = '分布式下的樱花小记';

  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress } });
    page = await open(context);
  });
  afterAll(() => context?.close());

  it('registers with the captcha, logs out and logs in again', async () => {
    await page.goto('/explore');
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
    await page.getByRole('button', { name: '立即注册' }).click();
    await page.getByLabel('小石榴号').fill('dist_tester');
    await page.getByLabel('昵称').fill('集群测试员');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByLabel('确认密码').fill('secret123');
    await page.getByRole('button', { name: '注册' }).click();
    for (const [index, char] of [...stack.captchaAnswer].entries()) await page.getByLabel(`验证码第${index + 1}位`).fill(char);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: '确定' }).click()]);
    await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();

    await page.locator('.sidebar').getByRole('button', { name: '更多' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: '退出登录' }).click()]);
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
    await page.getByLabel('小石榴号').fill('dist_tester');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await Promise.all([page.waitForEvent('load'), page.locator('.auth-modal').getByRole('button', { name: '登录' }).click()]);
    await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();
  });

  it('publishes a note with a large and a small image and a tag, and sees it in the feed with its images', async () => {
    const large = await sharp({ create: { width: 1800, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg({ quality: 95 }).toBuffer();
    const small = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#e8a0b4' } }).jpeg().toBuffer();
    expect(large.length).toBeGreaterThan(0.8 * 1024 * 1024);
    await page.goto('/publish');
    await page.getByLabel('选择图片').setInputFiles([
      { name: 'large.jpg', mimeType: 'image/jpeg', buffer: large },
      { name: 'small.jpg', mimeType: 'image/jpeg', buffer: small },
    ]);
    await page.locator('.upload-item').nth(1).waitFor();
    await page.getByPlaceholder('填写标题会有更多赞哦').fill(title);
    await page.getByPlaceholder('添加正文').fill('图片存进 MinIO，事件走 Kafka。');
    await page.locator('.field select').selectOption({ index: 1 });
    await page.getByLabel('添加标签').fill('樱花季');
    await page.getByLabel('添加标签').press('Enter');
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.locator('.toast', { hasText: '发布成功' }).waitFor();
    await page.waitForURL('**/post-management');
    const item = page.locator('.manage-item', { hasText: title });
    await item.waitFor();
    noteId = Number(await item.getAttribute('data-note-id'));
    const note = await stack.call<{ images: string[] }>('GET', `/api/posts/${noteId}`);
    expect(note.body.data.images).toHaveLength(2);

    await page.goto('/explore');
    const card = page.locator(`article.card[data-note-id="${noteId}"]`);
    await card.locator('.card-title', { hasText: title }).waitFor();
    await card.locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: join(SHOTS, 'distributed-explore-1440.png') });
    await card.locator('.card-link').click();
    await page.locator('.detail-title', { hasText: title }).waitFor();
    const shown = page.locator('img.gallery-image');
    await shown.waitFor();
    await page.waitForFunction((image) => image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0, await shown.elementHandle());
    await page.keyboard.press('Escape');
    await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
  });
});

creatingAndFollowingUp({ stack: () => stack, browser: () => browser, open, provoked, shot: (name) => join(SHOTS, `distributed-${name}`) });
