import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { browserSuite, cards, PHONE } from './browser-kit';

// The first load as a phone sees it, against the embedded product with its demo notes (whose images are stored
// straight into object storage, so their widths come from media's backfill, not from an upload).
const suite = browserSuite({ mode: 'embedded', env: { DEMO_DATA: 'true', DEMO_NOTES: '40' }, shotPrefix: 'first-load-' });
const { open, shot } = suite;

/** A page whose app script never arrives: what it shows is the HTML's own. */
async function withoutScript(width: number, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await suite.context(width, options);
  await context.route(/\/(assets\/index-[\w-]+\.js|src\/main\.tsx)$/, (route) => route.abort('aborted'));
  const page = await open(context);
  await page.goto('/explore');
  await page.locator('.shell-cards > div').first().waitFor();
  return { context, page };
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('the first load', () => {
  it('draws the header, the channel strip and card skeletons from the HTML before the script runs, light and dark', async () => {
    const light = await withoutScript(390, PHONE);
    expect(await light.page.locator('.shell-logo').textContent()).toBe('拾柳');
    expect(await light.page.locator('.shell-strip i').count()).toBeGreaterThan(4);
    expect(await light.page.locator('.shell-cards > div').count()).toBe(10);
    expect(await background(light.page)).toBe('rgb(255, 255, 255)');
    await light.page.screenshot({ path: shot('shell-390-light.png') });
    await light.context.close();

    const dark = await withoutScript(390, { ...PHONE, colorScheme: 'dark' });
    expect(await background(dark.page)).toBe('rgb(18, 18, 20)');
    await dark.page.screenshot({ path: shot('shell-390-dark.png') });
    await dark.context.close();

    const wide = await withoutScript(1440);
    expect(await wide.page.locator('.shell-search').isVisible()).toBe(true);
    expect(await wide.page.locator('.shell-bottom').isVisible()).toBe(false);
    await wide.page.screenshot({ path: shot('shell-1440-light.png') });
    await wide.context.close();
  });

  it('draws the shell in the theme the visitor picked over the system’s, before the script runs', async () => {
    const context = await suite.context(390, { ...PHONE, colorScheme: 'light' });
    await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort('aborted'));
    const page = await open(context);
    await page.goto('/explore');
    await page.locator('.shell-cards > div').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await background(page)).toBe('rgb(18, 18, 20)');
    await context.close();
  });

  it('puts the page in the shell’s place without moving what was drawn, and the phone’s cards ask for the 400 px width', async () => {
    const context = await suite.context(390, PHONE);
    const page = await open(context);
    const widths: string[] = [];
    page.on('request', (request) => {
      const match = /\.w(\d+)\.webp$/.exec(new URL(request.url()).pathname);
      if (match) widths.push(match[1]);
    });
    await page.goto('/explore');
    const first = cards(page).first().locator('.lazy-image img');
    await cards(page).first().locator('.lazy-image.loaded').waitFor();
    expect(await page.locator('.shell').count()).toBe(0);

    expect(await first.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname)).toMatch(/\.w400\.webp$/);
    expect(await first.getAttribute('sizes')).toContain('50vw');
    expect(await first.getAttribute('fetchpriority')).toBe('high');
    expect(widths.length).toBeGreaterThan(0);
    expect(widths.every((width) => width === '400')).toBe(true);

    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const shifts = list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[];
            resolve(shifts.filter((shift) => !shift.hadRecentInput).reduce((sum, shift) => sum + shift.value, 0));
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(0), 1000);
        }),
    );
    expect(shifted).toBeLessThanOrEqual(0.05);
    await page.screenshot({ path: shot('explore-390.png') });
    await context.close();
  });

  it('asks a visitor’s first page of 推荐 before the app’s script runs, and only once', async () => {
    const early = await suite.context(390, PHONE);
    await early.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort('aborted'));
    const before = await open(early);
    const asked = before.waitForRequest((request) => new URL(request.url()).pathname === '/api/posts');
    await before.goto('/explore');
    const request = await asked;
    expect(new URL(request.url()).search).toBe('?page=1&limit=20');
    expect(request.headers().authorization).toBeUndefined();
    await early.close();

    const context = await suite.context(390, PHONE);
    const page = await open(context);
    const feeds: string[] = [];
    page.on('request', (each) => {
      const url = new URL(each.url());
      if (url.pathname === '/api/posts') feeds.push(url.search);
    });
    await page.goto('/explore');
    await cards(page).first().waitFor();
    expect(await cards(page).count()).toBeGreaterThan(1);
    expect(feeds).toEqual(['?page=1&limit=20']);
    await context.close();
  });

  it('asks nothing early for a student with a session: the app asks, with their token', async () => {
    const context = await suite.context(390, PHONE);
    await context.addInitScript(() => localStorage.setItem('token', 'a-session'));
    await context.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort('aborted'));
    const page = await open(context);
    await page.goto('/explore');
    await page.locator('.shell-cards > div').first().waitFor();
    expect(await page.evaluate(() => '__firstFeed' in window)).toBe(false);
    await context.close();
  });
});
