import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
// The browser drives the same embedded product the gateway's own tests start, database and captcha answer included.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type ProductStack, startProductStack } from '../../gateway/test/product-stack';

const SHOTS = join(__dirname, '../../../tmp/screenshots');
/** Answers the product gives on purpose: the unread badge's call while notifications are not served. */
const DELIBERATE = [/\/api\/notifications\/unread-count$/];
/** Further answers one test provokes on purpose (cleared after each test). */
const provoked: RegExp[] = [];

let stack: ProductStack;
let browser: Browser;
const problems: string[] = [];

/** A page that records every uncaught error and every failed request that is not deliberate. */
async function open(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    if (!/ERR_ABORTED/.test(reason)) problems.push(`request failed: ${request.url()} ${reason}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && ![...DELIBERATE, ...provoked].some((pattern) => pattern.test(new URL(response.url()).pathname))) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return page;
}

const cards = (page: Page) => page.locator('article.card');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [stack, browser] = await Promise.all([startProductStack('embedded', { DEMO_DATA: 'true' }), chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

afterEach(() => {
  provoked.length = 0;
  const seen = problems.splice(0);
  expect(seen).toEqual([]);
});

describe('the web app against the embedded product', () => {
  let wide: BrowserContext;
  let page: Page;
  let noteId: number;

  beforeAll(async () => {
    wide = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress } });
    await wide.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await open(wide);
  });
  afterAll(() => wide?.close());

  it('shows the feed, switches channels and loads a second page on scrolling', async () => {
    await page.goto('/');
    await page.waitForURL('**/explore');
    await cards(page).nth(4).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: join(SHOTS, 'explore-1440.png') });
    const channel = page.getByRole('tab').nth(1);
    const label = await channel.textContent();
    await channel.click();
    await page.waitForURL(/\/explore\/\w+/);
    await page.locator('.channel-strip [aria-selected="true"]', { hasText: label! }).first().waitFor();
    await page.getByRole('tab', { name: '推荐' }).first().click();
    await page.waitForURL('**/explore');
    await cards(page).first().waitFor();
    const first = await cards(page).count();
    expect(first).toBe(20);
    await page.mouse.wheel(0, 20_000);
    await page.waitForFunction(() => document.querySelectorAll('article.card').length > 20);
    noteId = Number(await cards(page).first().getAttribute('data-note-id'));
  });

  it('opens a note as an overlay and closes it with Escape and with the back button', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const title = await cards(page).first().locator('.card-title').textContent();
    await cards(page).first().locator('.card-link').click();
    await page.getByTestId('note-overlay').waitFor();
    expect(page.url()).toContain(`/post?id=${noteId}`);
    await page.locator('.detail-title').waitFor();
    expect(await page.title()).toContain(title!);
    await page.waitForTimeout(500);
    await page.keyboard.press('Escape');
    await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/explore');
    await cards(page).first().locator('.card-link').click();
    await page.getByTestId('note-overlay').waitFor();
    await page.goBack();
    await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/explore');
  });

  it('registers with the captcha, logs out and logs in again', async () => {
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
    await page.getByRole('button', { name: '立即注册' }).click();
    await page.getByLabel('小石榴号').fill('web_tester');
    await page.getByLabel('昵称').fill('网页测试员');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByLabel('确认密码').fill('secret124');
    await page.getByRole('button', { name: '注册' }).click();
    await page.getByText('两次输入的密码不一致').waitFor();
    await page.getByLabel('确认密码').fill('secret123');
    await page.getByRole('button', { name: '注册' }).click();
    await page.getByLabel('验证码第1位').waitFor();
    for (const [index, char] of [...stack.captchaAnswer].entries()) await page.getByLabel(`验证码第${index + 1}位`).fill(char);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: '确定' }).click()]);
    await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();

    await page.locator('.sidebar').getByRole('button', { name: '更多' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: '退出登录' }).click()]);
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
    await page.getByLabel('小石榴号').fill('web_tester');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await Promise.all([page.waitForEvent('load'), page.locator('.auth-modal').getByRole('button', { name: '登录' }).click()]);
    await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();
  });

  it('likes and collects a note and undoes both; comments, replies and deletes', async () => {
    await page.goto(`/post?id=${noteId}`);
    const like = page.locator('button.action.like');
    const collect = page.locator('button.action.collect');
    const pressed = (button: 'like' | 'collect', on: boolean) => page.locator(`button.action.${button}[aria-pressed="${on}"]`).waitFor();
    await page.locator('.gallery-image').click();
    await page.locator('.viewer').waitFor();
    if (await page.locator('.viewer-counter').count()) {
      await page.keyboard.press('ArrowRight');
      await page.locator('.viewer-counter', { hasText: '2 /' }).waitFor();
    }
    await page.keyboard.press('Escape');
    await page.locator('.viewer').waitFor({ state: 'detached' });
    await page.keyboard.press('d');
    await pressed('like', true);
    await collect.click();
    await pressed('collect', true);
    await page.locator('.toast', { hasText: '收藏成功' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'detail-1440.png') });
    await like.click();
    await pressed('like', false);
    await collect.click();
    await pressed('collect', false);

    const composer = page.getByRole('textbox', { name: '评论' });
    await composer.click();
    await composer.fill('这篇写得真好');
    await page.getByRole('button', { name: '发送' }).click();
    const mine = page.locator('.comment', { hasText: '这篇写得真好' });
    await mine.waitFor();
    await mine.getByRole('button', { name: '回复' }).click();
    await composer.fill('补充一句：收藏了');
    await composer.press('Shift+Enter');
    const reply = page.locator('.comment.reply', { hasText: '补充一句：收藏了' });
    await reply.waitFor();
    await reply.getByRole('button', { name: '删除' }).click();
    await page.locator('.confirm').getByRole('button', { name: '删除' }).click();
    await reply.waitFor({ state: 'detached' });
    await mine.getByRole('button', { name: '删除' }).click();
    await page.locator('.confirm').getByRole('button', { name: '删除' }).click();
    await mine.waitFor({ state: 'detached' });
  });

  it('locates a comment from targetCommentId and highlights it', async () => {
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const created = await stack.call<{ id: number }>('POST', '/api/comments', { post_id: noteId, content: '定位到我' }, token!);
    for (let i = 0; i < 6; i++) await stack.call('POST', '/api/comments', { post_id: noteId, content: `后来的评论 ${i}` }, token!);
    await page.goto(`/post?id=${noteId}&targetCommentId=${created.body.data.id}`);
    await page.locator(`.comment.highlight[data-comment-id="${created.body.data.id}"]`).waitFor();
  });

  it('follows a user from the hover card and shows the new button state', async () => {
    await page.goto('/explore');
    const author = cards(page).first().locator('.card-author');
    await author.hover();
    const card = page.locator('.hover-card:not(.loading)');
    await card.waitFor();
    await card.locator('.follow-button[data-state="follow"]', { hasText: '关注' }).click();
    await card.locator('.follow-button[data-state="unfollow"][aria-busy="false"]', { hasText: '已关注' }).waitFor();
    await page.goto(`/user/${await author.getAttribute('href').then((href) => href!.split('/').pop())}`);
    await page.locator('.profile .follow-button[data-state="unfollow"]').waitFor();
    await cards(page).nth(2).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: join(SHOTS, 'profile-other-1440.png') });
  });

  it('edits the profile', async () => {
    await page.goto('/user');
    await page.getByRole('button', { name: '编辑资料' }).click();
    const picture = await sharp({ create: { width: 480, height: 320, channels: 3, background: '#4a90d9' } }).png().toBuffer();
    await page.getByLabel('选择头像').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: picture });
    await page.locator('.modal', { hasText: '裁剪头像' }).getByRole('button', { name: '确定' }).click();
    await page.locator('.avatar-edit img.avatar:not([src$="default-avatar.svg"])').waitFor();
    await page.getByLabel('昵称').fill('改过的名字');
    await page.getByLabel('简介').fill('喜欢拍照和跑步');
    await page.getByLabel('添加兴趣').fill('摄影');
    await page.getByLabel('添加兴趣').press('Enter');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await page.locator('.profile-name', { hasText: '改过的名字' }).waitFor();
    await page.locator('.profile-bio', { hasText: '喜欢拍照和跑步' }).waitFor();
    await page.locator('.profile-head > img.avatar:not([src$="default-avatar.svg"])').waitFor();
    await page.screenshot({ path: join(SHOTS, 'profile-1440.png') });
  });

  it('lists the people one follows, correcting an unknown list type', async () => {
    await page.goto('/follow/nope');
    await page.waitForURL('**/follow/following');
    await page.locator('.person .follow-button[data-state="unfollow"]').waitFor();
    await page.getByRole('tab', { name: '粉丝' }).click();
    await page.getByText('暂无用户数据').waitFor();
  });

  it('ends the session when the token cannot be refreshed', async () => {
    provoked.push(/\/api\/auth\/(me|refresh)$/, /\/api\/notifications\/(stream|unread-count-by-type)$/);
    await page.evaluate(() => {
      localStorage.setItem('token', 'expired');
      localStorage.setItem('refreshToken', 'revoked');
    });
    await page.goto('/user');
    await page.locator('.toast', { hasText: '会话已过期，已自动退出登录' }).waitFor();
    await page.waitForURL('**/explore');
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });

  it('counts down on the not-found page and goes home', async () => {
    await page.goto('/no/such/page');
    await page.getByText('你访问的页面不见了').waitFor();
    await page.getByText('4 秒后自动返回首页').waitFor();
    await page.waitForURL('**/explore', { timeout: 8000 });
  });
});

describe('on a phone', () => {
  it('shows explore, a note and a profile at 375 px, light and dark', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress } });
    const page = await open(phone);
    await page.goto('/explore');
    await cards(page).nth(3).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: join(SHOTS, 'explore-375.png') });
    const id = await cards(page).first().getAttribute('data-note-id');
    const author = await page.evaluate(async (noteId) => ((await (await fetch(`/api/posts/${noteId}`)).json()) as { data: { user_id: string } }).data.user_id, id);
    await page.goto(`/post?id=${id}`);
    await page.locator('.gallery-image').waitFor();
    await page.getByRole('button', { name: '关闭' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'detail-375.png') });
    await page.goto(`/user/${author}`);
    await page.locator('.profile-name').waitFor();
    await cards(page).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'profile-375.png') });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/explore');
    await cards(page).nth(3).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: join(SHOTS, 'explore-375-dark.png') });
    await phone.close();
  });
});

describe('creating and following up', () => {
  let context: BrowserContext;
  let page: Page;
  let author: { userId: string; token: string };
  let noteId: number;
  const title = '春日樱花拾柳小记';

  /** Signs a freshly registered student into a browser context through the stored session. */
  async function signInAs(target: BrowserContext, user: { token: string }) {
    const me = await stack.call<unknown>('GET', '/api/auth/me', undefined, user.token);
    await target.addInitScript(
      ([token, info]) => {
        if (!localStorage.getItem('token')) {
          localStorage.setItem('token', token);
          localStorage.setItem('userInfo', info);
        }
      },
      [user.token, JSON.stringify(me.body.data)] as const,
    );
  }

  beforeAll(async () => {
    author = await stack.signUp('发布者');
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress } });
    await signInAs(context, author);
    page = await open(context);
  });
  afterAll(() => context?.close());

  it('publishes a note with a large and a small image and a tag, then finds it in note management', async () => {
    const large = await sharp({ create: { width: 1800, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg({ quality: 95 }).toBuffer();
    const small = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#e8a0b4' } }).jpeg().toBuffer();
    expect(large.length).toBeGreaterThan(0.8 * 1024 * 1024);
    await page.goto('/publish');
    await page.getByLabel('选择图片').setInputFiles([
      { name: 'large.jpg', mimeType: 'image/jpeg', buffer: large },
      { name: 'small.jpg', mimeType: 'image/jpeg', buffer: small },
    ]);
    await page.locator('.upload-item').nth(1).waitFor();
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.locator('.toast', { hasText: '请输入标题' }).waitFor();
    await page.getByPlaceholder('填写标题会有更多赞哦').fill(title);
    await page.getByPlaceholder('添加正文').fill('操场边的樱花开了，和同学一起去看花。');
    await page.locator('.field select').selectOption({ index: 1 });
    await page.getByLabel('添加标签').fill('樱花季');
    await page.getByLabel('添加标签').press('Enter');
    await page.locator('.tag-field .chip', { hasText: '樱花季' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'publish-1440.png') });
    await page.getByRole('button', { name: '发布', exact: true }).click();
    await page.locator('.toast', { hasText: '发布成功' }).waitFor();
    await page.waitForURL('**/post-management');
    const item = page.locator('.manage-item', { hasText: title });
    await item.waitFor();
    noteId = Number(await item.getAttribute('data-note-id'));
    const note = await stack.call<{ images: string[]; tags: { name: string }[] }>('GET', `/api/posts/${noteId}`);
    expect(note.body.data.images).toHaveLength(2);
    expect(note.body.data.tags.map((tag) => tag.name)).toEqual(['樱花季']);
    await page.screenshot({ path: join(SHOTS, 'post-management-1440.png') });
  });

  it('saves a draft and reopens it for editing', async () => {
    await page.goto('/publish');
    await page.getByPlaceholder('填写标题会有更多赞哦').fill('还没写完的草稿');
    await page.getByLabel('选择图片').setInputFiles({ name: 'draft.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 400, height: 400, channels: 3, background: '#7bc8a4' } }).png().toBuffer() });
    await page.locator('.upload-item').first().waitFor();
    await page.getByRole('button', { name: '存草稿' }).click();
    await page.locator('.toast', { hasText: '保存成功' }).waitFor();
    await page.waitForURL('**/draft-box');
    const draft = page.locator('.manage-item', { hasText: '还没写完的草稿' });
    await draft.waitFor();
    await page.screenshot({ path: join(SHOTS, 'draft-box-1440.png') });
    await draft.getByRole('button', { name: '编辑' }).click();
    await page.waitForURL(/\/publish\?draftId=\d+&mode=edit/);
    expect(await page.getByPlaceholder('填写标题会有更多赞哦').inputValue()).toBe('还没写完的草稿');
    await page.locator('.upload-item img').first().waitFor();
  });

  it('searches from the header with history and suggestions, and switches the result tabs', async () => {
    await page.goto('/explore');
    const box = page.getByRole('textbox', { name: '搜索拾柳' });
    await box.click();
    await box.fill('樱花');
    await page.locator('.suggest-item').first().waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'search-suggest-1440.png') });
    await box.press('Enter');
    await page.waitForURL(/\/search_result\/all\?keyword=/);
    await page.locator('.search-title em', { hasText: '樱花' }).first().waitFor({ timeout: 15_000 });
    await page.locator('.tag-strip .chip', { hasText: '樱花季' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'search-1440.png') });
    await page.getByRole('tab', { name: '用户' }).click();
    await page.waitForURL(/\/search_result\/user\?keyword=/);
    await page.getByRole('tab', { name: '图文' }).click();
    await page.waitForURL(/\/search_result\/post\?keyword=/);
    await page.locator('article.card', { hasText: title }).waitFor();
    await box.fill('');
    await box.click();
    await page.locator('.history-chips .chip', { hasText: '樱花' }).waitFor();
  });

  it('shows the unread badge change live when another student likes the note, and lists it under 赞', async () => {
    await page.goto('/explore');
    await page.locator('.sidebar .side-link', { hasText: '通知' }).waitFor();
    expect(await page.locator('.sidebar .badge').count()).toBe(0);
    const fan = await stack.signUp('点赞的同学');
    expect((await stack.call('POST', '/api/likes', { target_type: 1, target_id: noteId }, fan.token)).status).toBe(200);
    await page.locator('.sidebar .badge', { hasText: '1' }).waitFor({ timeout: 15_000 });
    await page.locator('.sidebar .side-link', { hasText: '通知' }).click();
    await page.locator('.notice-tab.active', { hasText: '评论和@' }).waitFor();
    await page.getByRole('tab', { name: '赞' }).click();
    const notice = page.locator('.notice', { hasText: '赞了你的笔记' });
    await notice.waitFor();
    await page.screenshot({ path: join(SHOTS, 'notifications-1440.png') });
    await notice.hover();
    await page.locator('.notice.unread').waitFor({ state: 'detached' });
    await page.locator('.sidebar .badge').waitFor({ state: 'detached' });
  });

  it('shows publish, notifications and search at 375 px, light and dark', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, baseURL: stack.base, extraHTTPHeaders: { 'X-Forwarded-For': stack.clientAddress } });
    await signInAs(phone, author);
    const small = await open(phone);
    await small.goto('/publish');
    await small.getByText('上传图文').waitFor();
    await small.screenshot({ path: join(SHOTS, 'publish-375.png') });
    await small.goto('/notification');
    await small.getByRole('tab', { name: '赞' }).click();
    await small.locator('.notice').first().waitFor();
    await small.screenshot({ path: join(SHOTS, 'notifications-375.png') });
    await small.goto(`/search_result/all?keyword=${encodeURIComponent('樱花')}`);
    await small.locator('article.card').first().waitFor();
    await small.screenshot({ path: join(SHOTS, 'search-375.png') });
    await small.evaluate(() => localStorage.setItem('theme', 'dark'));
    await small.goto('/notification');
    await small.getByRole('tab', { name: '赞' }).click();
    await small.locator('.notice').first().waitFor();
    await small.screenshot({ path: join(SHOTS, 'notifications-375-dark.png') });
    await small.goto('/post-management');
    await small.locator('.manage-item').first().waitFor();
    await small.screenshot({ path: join(SHOTS, 'post-management-375-dark.png') });
    await phone.close();
  });
});
