import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, cards, PHONE, signInAs } from './browser-kit';

// What `npm start` shows on a fresh data folder, in the embedded product with a smaller demo set.
const suite = browserSuite({ mode: 'embedded', env: { DEMO_DATA: 'true', DEMO_NOTES: '60' }, shotPrefix: 'demo-' });
const { open, shot } = suite;

/** The avatars on the page: every one a drawn demo avatar, none the default silhouette. */
async function avatarSources(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
}

/** Every image the selector matches on screen has arrived and decoded (lazy ones further down are not asked for yet). */
async function loaded(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (images) => Array.from(document.querySelectorAll<HTMLImageElement>(images)).filter((image) => image.getBoundingClientRect().top < innerHeight).every((image) => image.complete && image.naturalWidth > 0),
    selector,
  );
}

/** The covers shown so far have faded in, so a screenshot does not catch them half transparent. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.lazy-image.loaded img')).every((image) => getComputedStyle(image).opacity === '1'));
}

/**
 * Screenshots of the screens a first visitor looks at, at a phone's and a desktop's width, as the host student
 * `xiaoshiliu` and as the administrator; each checks what would give away an empty or fake demo.
 */
describe.each([390, 1440])('the demo data on screen at %i px', (width) => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const stack = suite.stack();
    context = await suite.context(width, width < 500 ? PHONE : {});
    const login = await stack.call<{ tokens: { access_token: string } }>('POST', '/api/auth/login', { user_id: 'xiaoshiliu', password: 'shiliu123' });
    await signInAs(stack, context, { token: login.body.data.tokens.access_token });
    page = await open(context);
  });
  afterAll(() => context?.close());

  it('explore: covers of their subjects, drawn avatars, no title twice', async () => {
    await page.goto('/explore');
    await page.locator('article.card .lazy-image.loaded').nth(3).waitFor();
    await loaded(page, 'article.card img.avatar');
    await settled(page);
    const avatars = await avatarSources(page, 'article.card img.avatar');
    expect(avatars.length).toBeGreaterThan(5);
    for (const avatar of avatars) expect(avatar).toContain('/demo/avatars/');
    const titles = await page.locator('article.card .card-title').allTextContents();
    expect(new Set(titles).size).toBe(titles.length);
    await page.screenshot({ path: shot(`explore-${width}.png`) });
  });

  it('a note: its images and a conversation under it', async () => {
    const id = await cards(page).first().getAttribute('data-note-id');
    await page.goto(`/post?id=${id}`);
    await page.locator('.detail-title').waitFor();
    await loaded(page, '.detail-media img');
    await page.locator('.comment').first().waitFor();
    await loaded(page, '.comment img.avatar');
    for (const avatar of await avatarSources(page, '.comment img.avatar')) expect(avatar).toContain('/demo/avatars/');
    await page.screenshot({ path: shot(`note-${width}.png`) });
  });

  it('a video note: its clip plays', async () => {
    await page.goto('/explore/sports');
    const card = cards(page).filter({ has: page.locator('.card-video') }).first();
    await page.goto(`/post?id=${await card.getAttribute('data-note-id')}`);
    const video = page.locator('.gallery.video video');
    await video.waitFor();
    expect(await video.getAttribute('poster')).toContain('/demo/content/');
    await video.evaluate((element: HTMLVideoElement) => element.play());
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('.gallery.video video')?.currentTime ?? 0) > 0.5);
    await page.screenshot({ path: shot(`video-note-${width}.png`) });
  });

  it('a profile with people following and followed', async () => {
    await page.goto('/user/chen_mo');
    await page.locator('.profile-name', { hasText: '陈默' }).waitFor();
    await cards(page).first().locator('.lazy-image.loaded').waitFor();
    await settled(page);
    const counts = page.locator('.profile-counts b');
    await page.waitForFunction(() => Array.from(document.querySelectorAll('.profile-counts b')).slice(0, 2).every((count) => Number(count.textContent) > 0));
    expect(Number(await counts.nth(0).textContent())).toBeGreaterThan(0);
    expect(await page.locator('.profile-head img.avatar').getAttribute('src')).toContain('/demo/avatars/');
    await page.screenshot({ path: shot(`profile-${width}.png`) });
  });

  it('the host\'s notifications', async () => {
    await page.goto('/notification');
    await page.locator('li.notice').nth(3).waitFor();
    await loaded(page, 'li.notice .notice-avatar img');
    for (const avatar of await avatarSources(page, 'li.notice .notice-avatar img')) expect(avatar).toContain('/demo/avatars/');
    await page.screenshot({ path: shot(`notifications-${width}.png`) });
  });

  it('the administrator\'s monitor', async () => {
    const stack = suite.stack();
    const login = await stack.call<{ admin: unknown; tokens: { access_token: string; refresh_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword });
    const admin = await suite.context(width, width < 500 ? PHONE : {});
    await admin.addInitScript(
      ([token, refresh, info]) => {
        localStorage.setItem('admin_token', token);
        localStorage.setItem('admin_refresh_token', refresh);
        localStorage.setItem('admin_info', info);
      },
      [login.body.data.tokens.access_token, login.body.data.tokens.refresh_token, JSON.stringify(login.body.data.admin)] as const,
    );
    const monitor = await open(admin);
    await monitor.goto('/admin/monitor');
    await monitor.locator('.activity').nth(5).waitFor();
    await monitor.screenshot({ path: shot(`admin-monitor-${width}.png`) });
    await admin.close();
  });
});
