import type { BrowserContext, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { type StackUser, waitFor } from '../../gateway/test/product-stack';
import { browserSuite, cards, PHONE, signInAs, swipe } from './browser-kit';

// The rough edges a student finds by using every screen (issue 38), each where it happens: the phone's note page at
// 390 × 844, the rest at 1440 × 900. No demo data: each test makes what it looks at.
// The pictures below are stored around the upload path, whose widths media makes when the note's event is handled:
// a page opened before that asks for a width that is not there yet and shows the picture itself instead.
const suite = browserSuite({ mode: 'embedded', pictures: 'polish', shotPrefix: 'polish-', deliberate: [/^\/api\/files\/images\/polish\/.+\.w\d+\.webp$/] });
const { open, provoked, shot, ok, picture } = suite;

const PHONE_SIZE = { ...PHONE, viewport: { width: 390, height: 844 } };

/** A published image note by the given student. */
async function publish(by: StackUser, note: { title: string; content?: string; images?: string[]; tags?: string[] }): Promise<number> {
  const images = note.images ?? [await picture('#e8a0b4')];
  return (await ok<{ id: number }>('POST', '/api/posts', { title: note.title, content: note.content ?? '<p>正文</p>', category_id: 1, type: 1, images, tags: note.tags ?? [] }, by.token)).id;
}


/** Waits (15 s at most) until the check holds. */
const until = (what: string, check: () => Promise<boolean>) => waitFor(what, check, 15_000);

/** The x of the gallery track's transform, in pixels. */
const trackShift = (page: Page) => page.locator('.gallery-track').evaluate((track) => new DOMMatrix(getComputedStyle(track).transform).m41);

describe('the rough edges of issue 38', () => {
  let author: StackUser;
  let reader: StackUser;
  let gallery: number;
  let bare: number;

  beforeAll(async () => {
    [author, reader] = await Promise.all([suite.stack().signUp('柳絮'), suite.stack().signUp('小满')]);
    gallery = await publish(author, { title: '图书馆的三个角落', images: await Promise.all(['#d9534f', '#5bc0de', '#5cb85c'].map(picture)), tags: ['考研'] });
    bare = await publish(author, { title: '刚发布的笔记' });
  });

  describe('on a phone at 390 × 844', () => {
    let phone: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      phone = await suite.context(390, PHONE_SIZE);
      page = await open(phone);
    });
    afterAll(() => phone?.close());

    it("shows only the note's own header and comment bar on the note's page", async () => {
      await page.goto(`/post?id=${gallery}`);
      await page.locator('.gallery-image').waitFor();
      expect(await page.locator('header.header').count()).toBe(0);
      expect(await page.locator('.bottom-bar').count()).toBe(0);
      await page.locator('.detail-author').waitFor();
      const bar = await page.locator('.detail-footer').boundingBox();
      expect(Math.round(bar!.y + bar!.height)).toBe(844);
      await page.screenshot({ path: shot('note-390.png') });
    });

    it('swipes the gallery: the track follows the finger, snaps past 50 px and springs back short of it', async () => {
      await page.goto(`/post?id=${gallery}`);
      const image = page.locator('.gallery-image');
      await image.waitFor();
      const box = (await page.locator('.gallery').boundingBox())!;
      const middle = { x: box.x + box.width * 0.7, y: box.y + box.height / 2 };
      const counter = page.locator('.gallery-counter');
      expect(await counter.textContent()).toBe('1/3');

      // Mid-gesture the track sits where the finger is; let go past 50 px it settles on the next image.
      let during = 0;
      await swipe(page, middle, { x: -120, y: 0 }, 8, async () => {
        during = await trackShift(page);
        await page.screenshot({ path: shot('gallery-mid-swipe-390.png') });
      });
      expect(during).toBeCloseTo(-120, -1);
      await page.locator('.gallery-counter', { hasText: '2/3' }).waitFor();
      await until('the track at rest', async () => (await trackShift(page)) === 0);
      expect(await image.getAttribute('alt')).toContain('第2张');

      // Short of the threshold, back to where it was; a mostly vertical move never takes the track.
      await swipe(page, middle, { x: -40, y: 0 });
      await until('the track at rest', async () => (await trackShift(page)) === 0);
      expect(await counter.textContent()).toBe('2/3');
      await swipe(page, middle, { x: -30, y: 90 });
      expect(await counter.textContent()).toBe('2/3');

      await swipe(page, middle, { x: 120, y: 0 });
      await page.locator('.gallery-counter', { hasText: '1/3' }).waitFor();

      // The dots are targets a finger can hit.
      const dot = page.getByRole('button', { name: '第3张' });
      const size = (await dot.boundingBox())!;
      expect(size.height).toBeGreaterThanOrEqual(24);
      // A click, not a tap: on a loaded machine the two halves of a synthetic tap can land far enough apart to read as a press.
      await dot.click();
      await page.locator('.gallery-counter', { hasText: '3/3' }).waitFor();
      await page.screenshot({ path: shot('gallery-swiped-390.png') });
    });

    it('keeps the comment box at least 120 px wide on a note with no reactions, light and dark', async () => {
      for (const theme of ['light', 'dark']) {
        await page.evaluate((mode) => localStorage.setItem('theme', mode), theme);
        await page.goto(`/post?id=${bare}`);
        const input = page.getByRole('textbox', { name: '评论' });
        await input.waitFor();
        expect((await input.boundingBox())!.width).toBeGreaterThanOrEqual(120);
        // The placeholder is whole, not cut to 说点什.
        expect(await input.evaluate((field) => field.scrollWidth <= field.clientWidth)).toBe(true);
        await page.locator('.comments-empty').waitFor();
        await page.screenshot({ path: shot(`zero-count-390${theme === 'dark' ? '-dark' : ''}.png`) });
      }
      await page.evaluate(() => localStorage.removeItem('theme'));
    });
  });

  describe('at 1440 × 900', () => {
    // Signed in as the notes' author, whose own notes 推荐 leaves out: their channel (学习, where publish puts them) shows them.
    const OWN_NOTES_CHANNEL = '/explore/study';
    let wide: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      wide = await suite.context(1440);
      await signInAs(suite.stack(), wide, author);
      page = await open(wide);
    });
    afterAll(() => wide?.close());

    it('keeps the comment box at least 120 px wide in the overlay of a note with no reactions', async () => {
      await page.goto(OWN_NOTES_CHANNEL);
      await page.locator(`article.card[data-note-id="${bare}"] .card-link`).click();
      const input = page.getByRole('textbox', { name: '评论' });
      await input.waitFor();
      expect((await input.boundingBox())!.width).toBeGreaterThanOrEqual(120);
      await page.locator('.gallery-image').waitFor();
      await page.screenshot({ path: shot('zero-count-overlay-1440.png') });
      await page.keyboard.press('Escape');
      await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
    });

    it('moves focus into the overlay and back to its card; names the page; gives author links room to tap', async () => {
      await page.goto(OWN_NOTES_CHANNEL);
      await page.getByRole('heading', { level: 1, name: '发现' }).waitFor({ state: 'attached' });
      const link = page.locator(`article.card[data-note-id="${gallery}"] .card-link`);
      await link.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('note-overlay').waitFor();
      await page.locator('.detail-title').waitFor();
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('.overlay-card')))).toBe(true);
      await page.keyboard.press('Escape');
      await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
      expect(await page.evaluate((id) => document.activeElement === document.querySelector(`article.card[data-note-id="${id}"] .card-link`), gallery)).toBe(true);
      for (const box of await cards(page).locator('.card-author').evaluateAll((links) => links.map((each) => each.getBoundingClientRect().height))) expect(box).toBeGreaterThanOrEqual(24);
    });

    it('shows 加载更多评论 only while there is more to load', async () => {
      const note = await publish(author, { title: '五条评论' });
      for (let i = 0; i < 5; i++) await ok('POST', '/api/comments', { post_id: note, content: `第${i + 1}条` }, reader.token);
      await page.goto(`/post?id=${note}`);
      await page.locator('.comment', { hasText: '第1条' }).waitFor();
      await page.getByText('— 到底了 —').waitFor();
      expect(await page.getByRole('button', { name: '加载更多评论' }).count()).toBe(0);
      await ok('POST', '/api/comments', { post_id: note, content: '第6条' }, reader.token);
      await page.reload();
      await page.getByRole('button', { name: '加载更多评论' }).click();
      await page.locator('.comment', { hasText: '第1条' }).waitFor();
      await page.getByText('— 到底了 —').waitFor();
    });

    it("locates the fifth reply from its notification's thumbnail, in the overlay, with its thread expanded", async () => {
      const note = await publish(author, { title: '回复很多的笔记' });
      const asked = await ok<{ id: number }>('POST', '/api/comments', { post_id: note, content: '有人一起去吗？' }, author.token);
      // Later comments push the thread off the first page, so the locate pages on as well.
      const replies: number[] = [];
      for (let i = 1; i <= 5; i++) replies.push((await ok<{ id: number }>('POST', '/api/comments', { post_id: note, content: `第${i}条回复`, parent_id: asked.id }, reader.token)).id);
      for (let i = 0; i < 5; i++) await ok('POST', '/api/comments', { post_id: note, content: `后来的评论 ${i}` }, reader.token);
      await page.goto('/notification');
      await page.getByRole('heading', { level: 1, name: '通知' }).waitFor({ state: 'attached' });
      // The note's author hears of each reply twice: as a reply to the comment, the one taken here, and as a comment on the note.
      const notice = page.locator('.notice', { hasText: '回复了你的评论' }).filter({ hasText: '第5条回复' });
      await notice.waitFor();
      await notice.getByRole('link', { name: '查看笔记' }).click();
      await page.getByTestId('note-overlay').waitFor();
      // Above the notifications, like every other way into a note.
      expect(new URL(page.url()).searchParams.get('targetCommentId')).toBe(String(replies[4]));
      await page.locator('.notice-page').waitFor();
      await page.locator(`.comment.highlight[data-comment-id="${replies[4]}"]`).waitFor();
      await page.getByRole('button', { name: '收起' }).waitFor();
      await page.screenshot({ path: shot('located-reply-1440.png') });
      await page.keyboard.press('Escape');
      await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
    });

    it('prefills the header search box from a results address', async () => {
      await page.goto(`/search_result?keyword=${encodeURIComponent('图书馆')}`);
      await page.waitForURL('**/search_result/all?keyword=*');
      await until('the keyword in the box', async () => (await page.getByRole('textbox', { name: '搜索拾柳' }).inputValue()) === '图书馆');
      await page.goto(`/search_result/all?tag=${encodeURIComponent('考研')}`);
      await until('the tag in the box', async () => (await page.getByRole('textbox', { name: '搜索拾柳' }).inputValue()) === '考研');
    });

    it('adds the highlighted tag suggestion on Enter, and what was typed when none is', async () => {
      await page.goto('/publish');
      const field = page.getByRole('combobox', { name: '添加标签' });
      await field.fill('考');
      await page.getByRole('option', { name: '#考研', selected: true }).waitFor();
      await page.locator('.tag-input').screenshot({ path: shot('tag-suggestion-1440.png') });
      await field.press('Enter');
      await page.locator('.tag-field .chip', { hasText: '#考研' }).waitFor();
      expect(await field.inputValue()).toBe('');
      await field.fill('图书');
      await field.press('ArrowUp');
      await field.press('Enter');
      await page.locator('.tag-field .chip', { hasText: '#图书' }).waitFor();
    });

    it('clears the liked hearts of the feed when the session ends on its own', async () => {
      await ok('POST', '/api/likes', { target_type: 1, target_id: gallery }, author.token);
      await page.goto(OWN_NOTES_CHANNEL);
      const hearts = page.locator(`article.card[data-note-id="${gallery}"] .card-likes`);
      await page.locator(`article.card[data-note-id="${gallery}"] .card-likes.liked`).waitFor();
      // The token and its refresh both refused from here on, as when the session has been revoked elsewhere.
      provoked.push(/\/api\/posts\/\d+$/, /\/api\/auth\/refresh$/);
      await page.route(/\/api\/(posts\/\d+|auth\/refresh)(\?|$)/, (route) => route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 401, message: '未授权访问', data: null }) }));
      await cards(page).first().locator('.card-link').click();
      await page.locator('.toast', { hasText: '会话已过期，已自动退出登录' }).waitFor();
      await page.unroute(/\/api\/(posts\/\d+|auth\/refresh)(\?|$)/);
      await page.locator('.sidebar').getByRole('button', { name: '登录' }).waitFor();
      await until('the heart no longer red', async () => (await hearts.getAttribute('class'))?.includes('liked') === false);
      await ok('DELETE', '/api/likes', { target_type: 1, target_id: gallery }, author.token);
    });
  });

  it("changes the password: the server's meaning shown, then logged out with the login dialog open", async () => {
    const student = await suite.stack().signUp('改密码的同学');
    const context = await suite.context(1440);
    await signInAs(suite.stack(), context, student);
    const page = await open(context);
    provoked.push(/\/api\/users\/\w+\/password$/);
    await page.goto('/explore');
    await page.locator('.sidebar').getByRole('button', { name: '更多' }).click();
    await page.getByRole('menuitem', { name: '账号与安全' }).click();
    const form = page.locator('.modal form', { hasText: '修改密码' });
    const change = async (current: string, next: string) => {
      await form.getByLabel('当前密码').fill(current);
      await form.getByLabel('新密码', { exact: true }).fill(next);
      await form.getByLabel('确认新密码').fill(next);
      await form.getByRole('button', { name: '修改密码' }).click();
    };
    await change('secret-123', 'secret-123');
    await form.getByText('新密码不能与当前密码相同').waitFor();
    expect(await form.getByText('当前密码输入错误').count()).toBe(0);
    await change('not-my-password', 'brand-new-1');
    await form.getByText('当前密码输入错误，请检查后重新输入').waitFor();
    expect(await form.getByLabel('当前密码').inputValue()).toBe('');
    await page.screenshot({ path: shot('change-password-1440.png') });
    await change('secret-123', 'brand-new-1');
    await page.locator('.toast', { hasText: '密码已修改，请重新登录' }).waitFor();
    const dialog = page.locator('.auth-modal');
    await dialog.waitFor();
    await page.screenshot({ path: shot('change-password-done-1440.png') });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await dialog.getByLabel('小石榴号').fill(student.userId);
    await dialog.getByLabel('密码', { exact: true }).fill('brand-new-1');
    await Promise.all([page.waitForEvent('load'), dialog.getByRole('button', { name: '登录' }).click()]);
    await page.locator('.sidebar').getByRole('link', { name: '我' }).waitFor();
    await context.close();
  });

  it("reloads from the offline page under the site's own policy", async () => {
    const context = await suite.context(1440);
    // Not the recording page: going offline on purpose fails requests, which is the point here.
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await page.goto('/explore');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    });
    await context.setOffline(true);
    await page.goto(`/post?id=${gallery}`);
    await page.getByText('网络连接失败，请检查网络设置').waitFor();
    await page.screenshot({ path: shot('offline-1440.png') });
    await context.setOffline(false);
    await Promise.all([page.waitForEvent('load'), page.getByRole('link', { name: '重新加载' }).click()]);
    await page.locator('.gallery-image').waitFor();
    expect(new URL(page.url()).search).toBe(`?id=${gallery}`);
    expect(blocked).toEqual([]);
    await context.close();
  });

  describe('the back office', () => {
    it('renders note text in the notes table and mentions as names in the monitor', async () => {
      const login = await ok<{ tokens: { access_token: string; refresh_token: string }; admin: unknown }>('POST', '/api/auth/admin/login', { username: 'admin', password: suite.stack().adminPassword });
      const note = await publish(author, { title: '带提及的笔记', content: `<p>周末和[@小满:${reader.userId}]去爬山</p><p>第二段</p>` });
      await ok('POST', '/api/comments', { post_id: note, content: `叫上[@小满:${reader.userId}]一起` }, author.token);
      const context = await suite.context(1440);
      await context.addInitScript(
        ([token, refresh, info]) => {
          localStorage.setItem('admin_token', token);
          localStorage.setItem('admin_refresh_token', refresh);
          localStorage.setItem('admin_info', info);
        },
        [login.tokens.access_token, login.tokens.refresh_token, JSON.stringify(login.admin)] as const,
      );
      const page = await open(context);
      await page.goto('/admin/posts');
      const row = page.locator('tr', { has: page.getByRole('cell', { name: String(note), exact: true }) });
      await row.waitFor();
      const text = await row.textContent();
      expect(text).not.toContain('<p>');
      expect(text).not.toContain('[@');
      expect(text).toContain('周末和@小满');
      await page.screenshot({ path: shot('admin-posts-1440.png') });
      await page.goto('/admin/monitor');
      await page.locator('.activity-content', { hasText: '叫上@小满一起' }).waitFor();
      const shown = (await page.locator('.activity-list').textContent()) ?? '';
      expect(shown).not.toContain('[@');
      expect(shown).not.toContain('<p>');
      await page.screenshot({ path: shot('admin-monitor-mentions-1440.png') });
      await context.close();
    });
  });
});
