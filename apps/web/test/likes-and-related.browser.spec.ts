import type { BrowserContext, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type StackUser, waitFor } from '../../gateway/test/product-stack';
import { browserSuite, cards, PHONE, signInAs } from './browser-kit';

// Issue 39 where a student meets it: likes and collections grouped on the notifications page, the heart on a feed
// card, and the related notes under a note. Each screen is also shot at 390 and 1280 px, light and dark.
// The pictures are stored around the upload path: a width media has not made yet is an expected 404.
const suite = browserSuite({ mode: 'embedded', pictures: 'issue-39', shotPrefix: 'issue-39-', deliberate: [/^\/api\/files\/images\/issue-39\/.+\.w\d+\.webp$/] });
const { open, provoked, shot, ok, picture } = suite;

async function publish(by: StackUser, title: string, options: { color?: string; tags?: string[]; category?: number } = {}): Promise<number> {
  const body = { title, content: '<p>正文</p>', category_id: options.category ?? 1, type: 1, images: [await picture(options.color ?? '#e8a0b4')], tags: options.tags ?? [] };
  return (await ok<{ id: number }>('POST', '/api/posts', body, by.token)).id;
}

/** Waits (15 s at most) until the check holds. */
const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 15_000);

/** Each width and theme the screens are shot at; the phone is a touch device. */
const SIZES = [390, 1280] as const;
const THEMES = ['light', 'dark'] as const;

async function themedContext(width: number, theme: 'light' | 'dark', user?: StackUser): Promise<BrowserContext> {
  const context = await suite.context(width, width < 500 ? PHONE : {});
  await context.addInitScript((mode) => localStorage.setItem('theme', mode), theme);
  if (user) await signInAs(suite.stack(), context, user);
  return context;
}

describe('grouped like notifications', () => {
  let author: StackUser;
  let note: number;

  beforeAll(async () => {
    author = await suite.stack().signUp('柳絮');
    note = await publish(author, '图书馆的秋天');
    // The newest like is 林小雨's: she is named first.
    for (const nickname of ['王一', '陈默', '林小雨']) await ok('POST', '/api/likes', { target_type: 1, target_id: note }, (await suite.stack().signUp(nickname)).token);
    const collector = await suite.stack().signUp('小满');
    await ok('POST', `/api/posts/${note}/collect`, undefined, collector.token);
    await until('the likes to be notified', async () => (await ok<{ likes: number }>('GET', '/api/notifications/unread-count-by-type', undefined, author.token)).likes === 3);
  });

  it('shows one item for the note with the names, the count and three stacked avatars, and reads the group when tapped', async () => {
    const context = await themedContext(1280, 'light', author);
    const page = await open(context);
    await page.goto('/notification');
    await page.getByRole('tab', { name: /^赞/ }).click();
    const group = page.locator('.notice-list > li').first();
    await group.getByText('林小雨、陈默等 3 人').waitFor();
    await group.getByText('赞了你的笔记').waitFor();
    expect(await page.locator('.notice-list > li').count()).toBe(1);
    expect(await group.locator('.notice-stack .avatar').count()).toBe(3);
    expect(await group.getAttribute('class')).toContain('unread');
    await group.locator('.notice-cover .lazy-image.loaded').waitFor();
    await page.screenshot({ path: shot('grouped-likes-1280.png') });

    const read = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/notifications/groups/read' && response.status() === 200);
    await group.locator('.notice-body').click();
    await read;
    await until('the group to show read', async () => !(await group.getAttribute('class'))?.includes('unread'));
    await until('the likes tab to have no unread', async () => (await ok<{ likes: number }>('GET', '/api/notifications/unread-count-by-type', undefined, author.token)).likes === 0);

    await page.getByRole('tab', { name: /^收藏/ }).click();
    await page.locator('.notice-list > li').first().getByText('小满').waitFor();
    await page.getByText('收藏了你的笔记').waitFor();
    await context.close();
  });

  it('looks right at 390 and 1280 px, light and dark', async () => {
    for (const width of SIZES) {
      for (const theme of THEMES) {
        const context = await themedContext(width, theme, author);
        const page = await open(context);
        await page.goto('/notification');
        await page.getByRole('tab', { name: /^赞/ }).click();
        await page.getByText('林小雨、陈默等 3 人').waitFor();
        await page.locator('.notice-cover .lazy-image.loaded').waitFor();
        await page.screenshot({ path: shot(`grouped-likes-${width}-${theme}.png`) });
        await context.close();
      }
    }
  });
});

describe('the heart on a feed card', () => {
  let author: StackUser;
  let reader: StackUser;
  let note: number;

  beforeAll(async () => {
    [author, reader] = await Promise.all([suite.stack().signUp('柳絮'), suite.stack().signUp('小满')]);
    note = await publish(author, '操场的晚霞', { color: '#f0ad4e' });
  });

  const card = (page: Page) => cards(page).and(page.locator(`[data-note-id="${note}"]`));
  const heart = (page: Page) => card(page).locator('.card-likes');

  it('likes from the card without opening the note, and the note shows it liked', async () => {
    const context = await themedContext(1280, 'light', reader);
    const page = await open(context);
    await page.goto('/explore');
    await heart(page).waitFor();
    expect(await heart(page).getAttribute('aria-pressed')).toBe('false');
    expect((await heart(page).textContent())?.trim()).toBe('0');

    const liked = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/likes' && response.request().method() === 'POST');
    await heart(page).click();
    expect((await liked).status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/explore');
    await until('the card to show the like', async () => (await heart(page).getAttribute('aria-pressed')) === 'true' && (await heart(page).textContent())?.trim() === '1');
    await page.screenshot({ path: shot('card-liked-1280.png') });

    await card(page).locator('.card-link').click();
    await page.waitForURL(`**/post?id=${note}`);
    const like = page.locator('.action.like');
    await until('the note to show it liked', async () => (await like.getAttribute('aria-pressed')) === 'true');
    expect(await like.getAttribute('aria-label')).toContain('1');

    // Unliked from the card again, back to none.
    await page.keyboard.press('Escape');
    await page.waitForURL('**/explore');
    await heart(page).click();
    await until('the card to show the unlike', async () => (await heart(page).getAttribute('aria-pressed')) === 'false' && (await heart(page).textContent())?.trim() === '0');
    await context.close();
  });

  it('rolls a failed like back, and asks a visitor to log in', async () => {
    const context = await themedContext(390, 'light', reader);
    const page = await open(context);
    provoked.push(/^\/api\/likes$/);
    await page.route('**/api/likes', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, message: '服务器内部错误', data: null }) }));
    await page.goto('/explore');
    await heart(page).click();
    await page.getByText('操作失败，请重试').waitFor();
    await until('the card to roll back', async () => (await heart(page).getAttribute('aria-pressed')) === 'false' && (await heart(page).textContent())?.trim() === '0');
    await context.close();

    const visitor = await themedContext(390, 'light');
    const visitorPage = await open(visitor);
    await visitorPage.goto('/explore');
    await heart(visitorPage).click();
    await visitorPage.locator('.auth-modal').waitFor();
    expect(new URL(visitorPage.url()).pathname).toBe('/explore');
    await visitor.close();
  });

  it('looks right at 390 and 1280 px, light and dark', async () => {
    await ok('POST', '/api/likes', { target_type: 1, target_id: note }, reader.token);
    for (const width of SIZES) {
      for (const theme of THEMES) {
        const context = await themedContext(width, theme, reader);
        const page = await open(context);
        await page.goto('/explore');
        await card(page).locator('.lazy-image.loaded').waitFor();
        await page.screenshot({ path: shot(`card-like-${width}-${theme}.png`) });
        await context.close();
      }
    }
  });
});

describe('相关推荐 under a note', () => {
  let author: StackUser;
  let note: number;
  let close: number;

  beforeAll(async () => {
    const [writer, other] = await Promise.all([suite.stack().signUp('阿秋'), suite.stack().signUp('林小雨')]);
    author = writer;
    note = await publish(author, '考研数学第一轮', { color: '#5bc0de', tags: ['考研', '数学'], category: 3 });
    close = await publish(other, '考研数学真题整理', { color: '#5cb85c', tags: ['考研', '数学'], category: 5 });
  });

  const related = (page: Page) => page.locator('section.related');

  it('shows the related notes under the note’s page, and at the end of the overlay a related card opens', async () => {
    const context = await themedContext(1280, 'light');
    const page = await open(context);
    await page.goto(`/post?id=${note}`);
    await related(page).getByRole('heading', { name: '相关推荐' }).waitFor();
    const first = related(page).locator('article.card').first();
    expect(await first.getAttribute('data-note-id')).toBe(String(close));
    expect(await related(page).locator(`article.card[data-note-id="${note}"]`).count()).toBe(0);

    // A related card opens the overlay above the page; its own related notes are at the overlay's end.
    await first.locator('.card-link').click();
    await page.waitForURL(`**/post?id=${close}`);
    const overlay = page.getByTestId('note-overlay');
    await overlay.locator('.detail-title', { hasText: '考研数学真题整理' }).waitFor();
    const end = overlay.locator('section.related');
    await end.getByRole('heading', { name: '相关推荐' }).waitFor();
    expect(await end.locator('article.card').first().getAttribute('data-note-id')).toBe(String(note));
    await context.close();
  });

  it('looks right at 390 and 1280 px, light and dark', async () => {
    for (const width of SIZES) {
      for (const theme of THEMES) {
        const context = await themedContext(width, theme);
        const page = await open(context);
        await page.goto(`/post?id=${note}`);
        // Below the note on a phone: the covers load once it is scrolled to.
        await related(page).getByRole('heading', { name: '相关推荐' }).scrollIntoViewIfNeeded();
        await related(page).locator('.lazy-image.loaded').first().waitFor();
        await page.screenshot({ path: shot(`related-page-${width}-${theme}.png`) });

        await page.goto('/explore');
        await cards(page).and(page.locator(`[data-note-id="${note}"]`)).locator('.card-link').click();
        const overlay = page.getByTestId('note-overlay');
        await overlay.locator('section.related').waitFor();
        await overlay.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
        await overlay.locator('section.related .lazy-image.loaded').first().waitFor();
        await page.screenshot({ path: shot(`related-overlay-${width}-${theme}.png`) });
        await context.close();
      }
    }
  });
});
