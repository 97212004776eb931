import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { formatCount } from '../src/lib/format';
import { browserSuite, cards, OTHER_HOST, PHONE, registerLogOutAndLogIn } from './browser-kit';
import { creatingAndFollowingUp } from './creating-flow';

// The browser drives the same embedded product the gateway's own tests start, database and captcha answer included.
const suite = browserSuite({
  mode: 'embedded',
  // Three pages of feed and every channel filled; the full 300 notes took the suite's start-up from 15 s to two minutes on a loaded machine.
  env: { DEMO_DATA: 'true', DEMO_NOTES: '60' },
  // The unread badge's call while notifications are not served.
  deliberate: [/\/api\/notifications\/unread-count$/],
});
const { open, provoked, shot } = suite;

describe('the web app against the embedded product', () => {
  let wide: BrowserContext;
  let page: Page;
  let noteId: number;

  beforeAll(async () => {
    wide = await suite.context(1440);
    await wide.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await open(wide);
  });
  afterAll(() => wide?.close());

  it('shows the feed, switches channels and loads a second page on scrolling', async () => {
    await page.goto('/');
    await page.waitForURL('**/explore');
    await cards(page).nth(4).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: shot('explore-1440.png') });
    const channel = page.getByRole('tab').nth(1);
    const label = await channel.textContent();
    await channel.click();
    await page.waitForURL(/\/explore\/\w+/);
    await page.locator('.channel-strip [aria-selected="true"]', { hasText: label! }).first().waitFor();
    await page.getByRole('tab', { name: '推荐' }).first().click();
    await page.waitForURL('**/explore');
    // The URL changes before React renders the new channel: until the strip shows 推荐 the old channel's cards are still there.
    await page.locator('.channel-strip [aria-selected="true"]', { hasText: '推荐' }).first().waitFor();
    // The waterfall draws its first cards at once and the rest of the page just after.
    await page.waitForFunction(() => document.querySelectorAll('article.card').length >= 20);
    const first = await cards(page).count();
    expect(first).toBe(20);
    await page.mouse.wheel(0, 20_000);
    await page.waitForFunction(() => document.querySelectorAll('article.card').length > 20);
    const ids = await cards(page).evaluateAll((all) => all.map((card) => card.getAttribute('data-note-id')));
    expect(new Set(ids).size).toBe(ids.length);
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
    // The images come once the open animation has ended, after which Escape plays the closing one.
    await page.locator('.gallery-image').waitFor();
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
    await registerLogOutAndLogIn(page, suite.stack().captchaAnswer, { userId: 'web_tester', nickname: '网页测试员' });
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
    await page.screenshot({ path: shot('detail-1440.png') });
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
    const created = await suite.stack().call<{ id: number }>('POST', '/api/comments', { post_id: noteId, content: '定位到我' }, token!);
    for (let i = 0; i < 6; i++) await suite.stack().call('POST', '/api/comments', { post_id: noteId, content: `后来的评论 ${i}` }, token!);
    await page.goto(`/post?id=${noteId}&targetCommentId=${created.body.data.id}`);
    await page.locator(`.comment.highlight[data-comment-id="${created.body.data.id}"]`).waitFor();
  });

  it('shows a like made in the overlay on the feed card it was opened from', async () => {
    await page.goto('/explore');
    const card = cards(page).nth(1);
    const id = await card.getAttribute('data-note-id');
    await card.locator('.card-link').click();
    await page.locator('.detail-title').waitFor();
    await page.locator('button.action.like[aria-pressed="false"]').click();
    await page.locator('button.action.like[aria-pressed="true"]').waitFor();
    await page.locator('.toast', { hasText: '点赞成功' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
    const note = await suite.stack().call<{ like_count: number; liked: boolean }>('GET', `/api/posts/${id}`, undefined, (await page.evaluate(() => localStorage.getItem('token')))!);
    expect(note.body.data.liked).toBe(true);
    await page.locator(`article.card[data-note-id="${id}"] .card-likes.liked`, { hasText: formatCount(note.body.data.like_count, true) }).waitFor();
  });

  it('writes a comment with an emoji and a mention picked from the pickers', async () => {
    const note = await suite.stack().call<{ user_id: string; nickname: string }>('GET', `/api/posts/${noteId}`);
    const { user_id: authorId, nickname } = note.body.data;
    await page.goto(`/post?id=${noteId}`);
    const composer = page.getByRole('textbox', { name: '评论' });
    await composer.click();
    await composer.fill('好看 ');
    await page.getByRole('button', { name: '表情', exact: true }).click();
    const picker = page.getByRole('dialog', { name: '选择表情' });
    await picker.getByRole('button', { name: '大笑' }).first().waitFor();
    await page.screenshot({ path: shot('emoji-picker-1440.png') });
    await picker.getByLabel('搜索表情').fill('樱花');
    await picker.getByRole('button', { name: '樱花' }).click();
    await picker.getByLabel('搜索表情').fill('没有这种表情');
    await picker.getByText('没有找到相关表情').waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await composer.inputValue()).toBe('好看 🌸');
    await page.getByRole('button', { name: '@用户' }).click();
    const mentions = page.getByRole('dialog', { name: '选择要@的人' });
    await mentions.getByLabel('搜索用户').fill(nickname);
    await mentions.locator('.mention-user', { hasText: `@${authorId}` }).click();
    await mentions.waitFor({ state: 'detached' });
    expect(await composer.inputValue()).toBe(`好看 🌸@${nickname} `);
    await page.getByRole('button', { name: '发送' }).click();
    const sent = page.locator('.comment', { hasText: '好看 🌸' });
    await sent.locator(`a.mention[href="/user/${authorId}"]`, { hasText: `@${nickname}` }).waitFor();
    await composer.click();
    await page.getByRole('button', { name: '表情', exact: true }).click();
    await picker.getByRole('button', { name: '最近使用' }).waitFor();
    await picker.locator('[data-group="recent"] .emoji', { hasText: '🌸' }).waitFor();
    await page.keyboard.press('Escape');
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
    // The demo's authors write from one note up, so the screenshot waits for the first of theirs.
    await cards(page).first().locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: shot('profile-other-1440.png') });
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
    await page.screenshot({ path: shot('profile-1440.png') });
  });

  it('lists the people one follows, correcting an unknown list type', async () => {
    await page.goto('/follow/nope');
    await page.waitForURL('**/follow/following');
    await page.locator('.person .follow-button[data-state="unfollow"]').waitFor();
    await page.getByRole('tab', { name: '粉丝' }).click();
    await page.getByText('暂无用户数据').waitFor();
  });

  it('ends the session when the token cannot be refreshed', async () => {
    // Every call the page makes before the refresh is refused carries the expired token, the profile's notes included.
    provoked.push(/\/api\/auth\/(me|refresh)$/, /\/api\/notifications\/(stream\/ticket|unread-count-by-type)$/, /\/api\/users\/\w+\/posts$/);
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
    // Every count the page shows, as it shows it: a second's count is seen however slowly the page goes.
    await page.addInitScript(() => {
      const shown: string[] = [];
      Object.assign(window, { countdownShown: shown });
      new MutationObserver(() => {
        const text = document.querySelector('.countdown')?.textContent;
        if (text && shown.at(-1) !== text) shown.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto('/no/such/page');
    await page.getByText('你访问的页面不见了').waitFor();
    await page.waitForURL('**/explore');
    const shown = await page.evaluate(() => (window as unknown as { countdownShown: string[] }).countdownShown);
    expect(shown).toEqual([5, 4, 3, 2, 1, 0].map((left) => `${left} 秒后自动返回首页`));
  });
});

describe('on a phone', () => {
  it('shows explore, a note and a profile at 375 px, light and dark', async () => {
    const phone = await suite.context(375, PHONE);
    const page = await open(phone);
    await page.goto('/explore');
    await cards(page).nth(3).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: shot('explore-375.png') });
    const id = await cards(page).first().getAttribute('data-note-id');
    const author = await page.evaluate(async (noteId) => ((await (await fetch(`/api/posts/${noteId}`)).json()) as { data: { user_id: string } }).data.user_id, id);
    await page.goto(`/post?id=${id}`);
    await page.locator('.gallery-image').waitFor();
    await page.getByRole('button', { name: '关闭' }).waitFor();
    await page.screenshot({ path: shot('detail-375.png') });
    await page.goto(`/user/${author}`);
    await page.locator('.profile-name').waitFor();
    await cards(page).first().waitFor();
    await page.screenshot({ path: shot('profile-375.png') });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/explore');
    await cards(page).nth(3).locator('.lazy-image.loaded').waitFor();
    await page.screenshot({ path: shot('explore-375-dark.png') });
    await phone.close();
  });
});

describe('from another address over plain http', () => {
  it('renders the feed, with the hashed script compressed and cached for good and the page revalidated', async () => {
    // Until the policy followed the protocol, its upgrade-insecure-requests sent the browser to https for the script and styles: a white page.
    const other = await suite.context(375, { ...PHONE, baseURL: suite.stack().base.replace('127.0.0.1', OTHER_HOST) });
    const page = await open(other);
    const scripts: { url: string; encoding?: string; cacheControl?: string }[] = [];
    const feeds: (string | undefined)[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      if (/^\/assets\/index-[\w-]+\.js$/.test(pathname)) scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'], cacheControl: response.headers()['cache-control'] });
      if (pathname === '/api/posts') feeds.push(response.headers()['content-encoding']);
    });
    const html = await page.goto('/explore');
    expect(new URL(page.url()).hostname).toBe(OTHER_HOST);
    expect(html!.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(html!.headers()['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(html!.headers()['strict-transport-security']).toBeUndefined();
    expect(html!.headers()['cache-control']).toBe('no-cache');
    await cards(page).nth(3).locator('.lazy-image.loaded').waitFor();
    // Chromium may offer br only over https; over http it takes gzip.
    expect(scripts).toEqual([{ url: expect.stringContaining(`http://${OTHER_HOST}:`), encoding: expect.stringMatching(/^(br|gzip)$/), cacheControl: 'public, max-age=31536000, immutable' }]);
    // The feed's page of 20 cards is well over 1 KB: it came compressed, and the cards above were drawn from it.
    expect(feeds[0]).toMatch(/^(br|gzip)$/);
    await page.screenshot({ path: shot('explore-375-other-host.png') });
    await other.close();
  });
});

creatingAndFollowingUp(suite);
