import type { BrowserContext, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type StackUser, waitFor } from '../../gateway/test/product-stack';
import { browserSuite, cards, PHONE, signInAs } from './browser-kit';

// The 关注 channel (issue 39): after 推荐 for a logged-in student, the notes of the people they follow, and people to
// follow when it is empty; on a phone at 390 × 844 and at 1440 × 900, light and dark. No demo data.
const suite = browserSuite({ mode: 'embedded', pictures: 'following', shotPrefix: 'following-' });
const { open, shot, ok, picture } = suite;

const PHONE_SIZE = { ...PHONE, viewport: { width: 390, height: 844 } };

/** The first channel strip (the fixed copy below it shows only on scrolling). */
const tabs = (page: Page) => page.locator('.explore > .channel-strip').getByRole('tab');

async function inTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate((mode) => localStorage.setItem('theme', mode), theme);
}

describe('the 关注 channel', () => {
  let author: StackUser;
  let reader: StackUser;
  let newcomer: StackUser;
  let loner: StackUser;
  const title = '操场边的晚霞';

  beforeAll(async () => {
    const stack = suite.stack();
    [author, reader, newcomer, loner] = await Promise.all([stack.signUp('晚霞摄影'), stack.signUp('小满'), stack.signUp('新同学'), stack.signUp('独行侠')]);
    const noteId = (await ok<{ id: number }>('POST', '/api/posts', { title, content: '<p>六点半的天空</p>', category_id: 1, type: 1, images: [await picture('#f0a868')], tags: [] }, author.token)).id;
    // Social learns of a new account through its event: until then the follow answers 404.
    await waitFor('social to know the author', async () => (await stack.call('POST', `/api/users/${author.userId}/follow`, undefined, reader.token)).status === 200);
    await waitFor('content to learn the follow', async () => {
      const feed = await ok<{ posts: { id: number }[] }>('GET', '/api/posts?category=following', undefined, reader.token);
      return feed.posts.some((post) => post.id === noteId);
    });
  });

  it('is not in the strip for a visitor', async () => {
    const context = await suite.context(1440);
    const page = await open(context);
    await page.goto('/explore');
    await tabs(page).first().waitFor();
    expect(await tabs(page).allTextContents()).not.toContain('关注');
    await context.close();
  });

  describe('at 1440 × 900', () => {
    let wide: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      wide = await suite.context(1440);
      await signInAs(suite.stack(), wide, reader);
      page = await open(wide);
    });
    afterAll(() => wide?.close());

    it("comes right after 推荐 and shows a followed author's note, light and dark", async () => {
      await page.goto('/explore');
      await tabs(page).nth(1).waitFor();
      expect((await tabs(page).allTextContents()).slice(0, 2)).toEqual(['推荐', '关注']);
      await tabs(page).nth(1).click();
      await page.waitForURL('**/explore/following');
      // 推荐's cards (the followed note among them) stay on screen until the 关注 feed has been drawn in their place.
      await waitFor('the 关注 feed, the followed note alone', async () => (await cards(page).count()) === 1 && (await cards(page).filter({ hasText: title }).count()) === 1);
      for (const theme of ['light', 'dark'] as const) {
        await inTheme(page, theme);
        await page.reload();
        await cards(page).filter({ hasText: title }).locator('.lazy-image.loaded').waitFor();
        await page.screenshot({ path: shot(`feed-1440-${theme}.png`) });
      }
      await page.evaluate(() => localStorage.removeItem('theme'));
    });

    it('shows the empty state with suggestions beside the sidebar, light and dark', async () => {
      const context = await suite.context(1440);
      await signInAs(suite.stack(), context, loner);
      const lonely = await open(context);
      for (const theme of ['light', 'dark'] as const) {
        await lonely.goto('/explore/following');
        await inTheme(lonely, theme);
        await lonely.reload();
        await lonely.getByText('你还没有关注任何人，去认识一些同学吧').waitFor();
        await lonely.locator('.suggestions .person', { hasText: '晚霞摄影' }).waitFor();
        await lonely.screenshot({ path: shot(`empty-1440-${theme}.png`) });
      }
      await context.close();
    });
  });

  describe('on a phone at 390 × 844', () => {
    let phone: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      phone = await suite.context(390, PHONE_SIZE);
      await signInAs(suite.stack(), phone, newcomer);
      page = await open(phone);
    });
    afterAll(() => phone?.close());

    it('suggests people to follow when one follows no one, light and dark', async () => {
      for (const theme of ['light', 'dark'] as const) {
        await page.goto('/explore/following');
        await inTheme(page, theme);
        await page.reload();
        await page.getByText('你还没有关注任何人，去认识一些同学吧').waitFor();
        const suggested = page.locator('.suggestions .person', { hasText: '晚霞摄影' });
        await suggested.getByRole('button', { name: '关注' }).waitFor();
        await page.screenshot({ path: shot(`empty-390-${theme}.png`) });
      }
      await page.evaluate(() => localStorage.removeItem('theme'));
    });

    it('follows from a suggestion with the usual button', async () => {
      const suggested = page.locator('.suggestions .person', { hasText: '晚霞摄影' });
      await suggested.getByRole('button', { name: '关注' }).click();
      await suggested.getByRole('button', { name: '已关注' }).waitFor();
      await waitFor('social to record the follow', async () => {
        const state = await ok<{ buttonType: string }>('GET', `/api/users/${author.userId}/follow-status`, undefined, newcomer.token);
        return state.buttonType === 'unfollow';
      });
      // The suggestions refresh after a follow, and the feed with them: the followed author's note comes in by itself.
      await cards(page).filter({ hasText: title }).locator('.lazy-image.loaded').waitFor();
      await page.screenshot({ path: shot('feed-390.png') });
    });
  });
});
