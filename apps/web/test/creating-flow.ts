import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { ProductStack } from '../../gateway/test/product-stack';
import { type BrowserSuite, cards, logIn, PHONE, signInAs as signInTo } from './browser-kit';

/** A touch gesture as a finger makes it: down, moving in steps, up (Chromium's own touch events through CDP). */
async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }, held?: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  if (held) await held();
  for (let step = 1; step <= 6; step++) {
    const x = from.x + ((to.x - from.x) * step) / 6;
    const y = from.y + ((to.y - from.y) * step) / 6;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function centre(page: Page, selector: string, index = 0) {
  const box = (await page.locator(selector).nth(index).boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A two-second test-pattern clip made by ffmpeg (VP8 in WebM, which every Chromium build decodes). */
async function clip(): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-web-'));
  try {
    const output = join(directory, 'clip.webm');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-c:v', 'libvpx', '-deadline', 'realtime', output]);
    return await readFile(output);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * Creating and following up (issue 16), the same in both run modes: browser.spec.ts runs it against the embedded
 * product, distributed-browser.spec.ts through the distributed stack.
 */
export function creatingAndFollowingUp(suite: BrowserSuite): void {
  const { open, shot } = suite;
  describe('creating and following up', () => {
    let stack: ProductStack;
    let context: BrowserContext;
    let page: Page;
    let author: { userId: string; token: string };
    let noteId: number;
    let videoNoteId: number;
    const title = '春日樱花拾柳小记';

    const signInAs = (target: BrowserContext, user: { token: string }) => signInTo(stack, target, user);

    beforeAll(async () => {
      stack = suite.stack();
      author = await stack.signUp('发布者');
      context = await suite.context(1440);
      await signInAs(context, author);
      page = await open(context);
    });
    afterAll(() => context?.close());

    it('publishes a note with a large and a small image, a tag and a mention, finds it in note management, and opens it with its images from the author’s notes', async () => {
      const friend = await stack.signUp('一起看花的同学');
      const large = await sharp({ create: { width: 1800, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } }).jpeg({ quality: 95 }).toBuffer();
      const small = await sharp({ create: { width: 600, height: 800, channels: 3, background: '#e8a0b4' } }).jpeg().toBuffer();
      expect(large.length).toBeGreaterThan(0.8 * 1024 * 1024);
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles([
        { name: 'large.jpg', mimeType: 'image/jpeg', buffer: large },
        { name: 'small.jpg', mimeType: 'image/jpeg', buffer: small },
      ]);
      await page.locator('.upload-item').nth(1).waitFor();
      await page.getByRole('button', { name: '上传', exact: true }).click();
      await page.locator('.toast', { hasText: '请输入标题' }).waitFor();
      await page.getByPlaceholder('填写标题会有更多赞哦').fill(title);
      await page.getByPlaceholder('添加正文').fill('操场边的樱花开了，和同学一起去看花。');
      await page.getByRole('button', { name: '@用户' }).click();
      const mentions = page.getByRole('dialog', { name: '选择要@的人' });
      await mentions.getByText('暂无好友').waitFor();
      await mentions.getByLabel('搜索用户').fill('一起看花的同学');
      await mentions.locator('.mention-user', { hasText: `@${friend.userId}` }).click();
      expect(await page.getByPlaceholder('添加正文').inputValue()).toBe('操场边的樱花开了，和同学一起去看花。@一起看花的同学 ');
      await page.locator('.field select').selectOption({ index: 1 });
      await page.getByLabel('添加标签').fill('樱花季');
      await page.getByLabel('添加标签').press('Enter');
      await page.locator('.tag-field .chip', { hasText: '樱花季' }).waitFor();
      await page.screenshot({ path: shot('publish-1440.png') });
      await page.getByRole('button', { name: '上传', exact: true }).click();
      await page.locator('.toast', { hasText: '发布成功' }).waitFor();
      await page.waitForURL('**/post-management');
      const item = page.locator('.manage-item', { hasText: title });
      await item.waitFor();
      noteId = Number(await item.getAttribute('data-note-id'));
      const note = await stack.call<{ images: string[]; tags: { name: string }[]; content: string }>('GET', `/api/posts/${noteId}`);
      expect(note.body.data.images).toHaveLength(2);
      expect(note.body.data.content).toContain(`[@一起看花的同学:${friend.userId}]`);
      expect(note.body.data.tags.map((tag) => tag.name)).toEqual(['樱花季']);
      await page.screenshot({ path: shot('post-management-1440.png') });

      // The author's own notes tab surely shows a note just published; the feeds rank it among everyone's.
      await page.goto('/user');
      const card = page.locator(`article.card[data-note-id="${noteId}"]`);
      await card.locator('.card-title', { hasText: title }).waitFor();
      await card.locator('.lazy-image.loaded').waitFor();
      await page.screenshot({ path: shot('profile-notes-1440.png') });
      await card.locator('.card-link').click();
      await page.locator('.detail-title', { hasText: title }).waitFor();
      const shown = page.locator('img.gallery-image');
      await shown.waitFor();
      await page.waitForFunction((image) => image instanceof HTMLImageElement && image.complete && image.naturalWidth > 0, await shown.elementHandle());
      await page.keyboard.press('Escape');
      await page.getByTestId('note-overlay').waitFor({ state: 'detached' });
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
      await page.screenshot({ path: shot('draft-box-1440.png') });
      await draft.getByRole('button', { name: '编辑' }).click();
      await page.waitForURL(/\/publish\?draftId=\d+&mode=edit/);
      expect(await page.getByPlaceholder('填写标题会有更多赞哦').inputValue()).toBe('还没写完的草稿');
      await page.locator('.upload-item img').first().waitFor();
    });

    it('makes a text image from a template, and refuses text with a banned word', async () => {
      await page.goto('/publish');
      await page.getByRole('button', { name: '文字配图' }).click();
      const dialog = page.getByRole('dialog', { name: '文字配图' });
      await dialog.getByText('请输入文字并选择模板').waitFor();
      expect(await dialog.getByRole('button', { name: '上传' }).isDisabled()).toBe(true);
      await dialog.getByLabel('配图文字').fill('春天来了\n一起去看樱花');
      await dialog.getByRole('radio', { name: '樱花粉' }).click();
      await dialog.getByRole('radio', { name: '文字颜色 #ff2442' }).click();
      await dialog.getByRole('img', { name: '文字配图预览' }).waitFor();
      await page.screenshot({ path: shot('text-image-1440.png') });
      await dialog.getByRole('button', { name: '上传' }).click();
      await page.locator('.toast', { hasText: '文字配图生成成功' }).waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.upload-item img').first().waitFor();
      const size = await page.locator('.upload-item img').first().evaluate((image: HTMLImageElement) => new Promise<[number, number]>((resolve) => (image.complete ? resolve([image.naturalWidth, image.naturalHeight]) : image.addEventListener('load', () => resolve([image.naturalWidth, image.naturalHeight])))));
      expect(size).toEqual([400, 600]);

      await page.getByRole('button', { name: '文字配图' }).click();
      await dialog.getByLabel('配图文字').fill('一起来 赌 博');
      await dialog.getByRole('radio', { name: '星空' }).click();
      await dialog.getByRole('button', { name: '上传' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.toast', { hasText: '内容包含违规词汇，请修改后重试' }).waitFor();
      expect(await page.locator('.upload-item').count()).toBe(1);
    });

    it('publishes a video with its upload progress and its cover', async () => {
      await page.goto('/publish');
      await page.getByRole('tab', { name: '上传视频' }).click();
      await page.getByLabel('选择视频').setInputFiles({ name: 'campus.webm', mimeType: 'video/webm', buffer: await clip() });
      await page.locator('.video-thumb img[alt="视频封面"]').waitFor();
      await page.getByPlaceholder('填写标题会有更多赞哦').fill('校园一分钟');
      await page.getByPlaceholder('添加正文').fill('图书馆门口的延时摄影。');
      await page.locator('.field select').selectOption({ index: 1 });
      await page.getByRole('button', { name: '上传', exact: true }).click();
      await page.getByRole('progressbar', { name: '上传进度' }).waitFor();
      await page.locator('.toast', { hasText: '视频上传成功' }).waitFor();
      expect(await page.getByRole('progressbar', { name: '上传进度' }).getAttribute('aria-valuenow')).toBe('100');
      await page.locator('.toast', { hasText: '发布成功' }).waitFor();
      await page.waitForURL('**/post-management');
      const item = page.locator('.manage-item', { hasText: '校园一分钟' });
      await item.waitFor();
      videoNoteId = Number(await item.getAttribute('data-note-id'));
      const note = await stack.call<{ type: number; video_url: string | null; cover_url: string | null }>('GET', `/api/posts/${videoNoteId}`);
      expect(note.body.data.type).toBe(2);
      expect(note.body.data.video_url).toBeTruthy();
      expect(note.body.data.cover_url).toBeTruthy();
    });

    it('searches from the header with history and suggestions, switches the result tabs, and finds the note by its tag', async () => {
      await page.goto('/explore');
      const box = page.getByRole('textbox', { name: '搜索拾柳' });
      await box.click();
      await box.fill('樱花');
      await page.locator('.suggest-item').first().waitFor();
      await page.screenshot({ path: shot('search-suggest-1440.png') });
      await box.press('Enter');
      await page.waitForURL(/\/search_result\/all\?keyword=/);
      await page.locator('.search-title em', { hasText: '樱花' }).first().waitFor();
      await page.locator('.tag-strip .chip', { hasText: '樱花季' }).waitFor();
      await page.screenshot({ path: shot('search-1440.png') });
      await page.getByRole('tab', { name: '用户' }).click();
      await page.waitForURL(/\/search_result\/user\?keyword=/);
      await page.getByRole('tab', { name: '图文' }).click();
      await page.waitForURL(/\/search_result\/post\?keyword=/);
      await page.locator('article.card', { hasText: title }).waitFor();
      await box.fill('');
      await box.click();
      await page.locator('.history-chips .chip', { hasText: '樱花' }).waitFor();

      // By its tag alone, as a tag link elsewhere opens it.
      await page.goto(`/search_result/all?tag=${encodeURIComponent('樱花季')}`);
      await page.locator('.search-tag-label', { hasText: '#樱花季' }).waitFor();
      await page.locator('article.card', { hasText: title }).waitFor();
      await page.locator('.tag-strip .chip.active', { hasText: '樱花季' }).waitFor();
    });

    it('shows the unread badge change live when another student likes the note, and lists it under 赞', async () => {
      await page.goto('/explore');
      await page.locator('.sidebar .side-link', { hasText: '通知' }).waitFor();
      expect(await page.locator('.sidebar .badge').count()).toBe(0);
      const fan = await stack.signUp('点赞的同学');
      expect((await stack.call('POST', '/api/likes', { target_type: 1, target_id: noteId }, fan.token)).status).toBe(200);
      await page.locator('.sidebar .badge', { hasText: '1' }).waitFor();
      await page.locator('.sidebar .side-link', { hasText: '通知' }).click();
      await page.locator('.notice-tab.active', { hasText: '评论和@' }).waitFor();
      await page.getByRole('tab', { name: '赞' }).click();
      const notice = page.locator('.notice', { hasText: '赞了你的笔记' });
      await notice.waitFor();
      await page.screenshot({ path: shot('notifications-1440.png') });
      await notice.hover();
      await page.locator('.notice.unread').waitFor({ state: 'detached' });
      await page.locator('.sidebar .badge').waitFor({ state: 'detached' });
    });

    it('a second student follows, likes and comments with an image and a mention; the author sees the badge move, finds each in its tab, replies and likes inline', async () => {
      const fan = await stack.signUp('来互动的同学');
      const other = await suite.context(1440);
      await signInAs(other, fan);
      const tab = await open(other);
      const me = await stack.call<{ nickname: string }>('GET', `/api/users/${author.userId}`);
      await page.goto('/explore');
      await page.locator('.sidebar .side-link', { hasText: '通知' }).waitFor();
      await page.locator('.sidebar .badge').waitFor({ state: 'detached' });

      await tab.goto(`/user/${author.userId}`);
      await tab.locator('.profile .follow-button[data-state="follow"]').click();
      await tab.locator('.profile .follow-button[data-state="unfollow"]').waitFor();
      await page.locator('.sidebar .badge', { hasText: /^1$/ }).waitFor();

      await tab.goto(`/post?id=${noteId}`);
      await tab.locator('button.action.like[aria-pressed="false"]').click();
      await tab.locator('button.action.like[aria-pressed="true"]').waitFor();
      await page.locator('.sidebar .badge', { hasText: /^2$/ }).waitFor();

      const composer = tab.getByRole('textbox', { name: '评论' });
      await composer.click();
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#5b8def' } }).jpeg().toBuffer();
      await tab.getByLabel('选择评论图片').setInputFiles([
        { name: 'moving.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') },
        { name: 'sky.jpg', mimeType: 'image/jpeg', buffer: photo },
      ]);
      await tab.locator('.toast', { hasText: 'moving.gif: 不支持的文件类型' }).waitFor();
      await tab.locator('.composer-images .upload-item:not(.pending)').waitFor();
      await composer.fill('拍得真好，');
      await tab.getByRole('button', { name: '@用户' }).click();
      const mentions = tab.getByRole('dialog', { name: '选择要@的人' });
      await mentions.getByLabel('搜索用户').fill(me.body.data.nickname);
      await mentions.locator('.mention-user', { hasText: `@${author.userId}` }).click();
      await tab.screenshot({ path: shot('comment-image-composer-1440.png') });
      await tab.getByRole('button', { name: '发送' }).click();
      const sent = tab.locator('.comment', { hasText: '拍得真好' });
      await sent.locator(`a.mention[href="/user/${author.userId}"]`).waitFor();
      await sent.locator('.comment-image img').evaluate((image: HTMLImageElement) => (image.complete ? undefined : new Promise((resolve) => image.addEventListener('load', resolve))));
      expect(await sent.locator('.comment-image img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
      await tab.screenshot({ path: shot('comment-with-image-1440.png') });
      await sent.locator('.comment-image').click();
      await tab.locator('.viewer').waitFor();
      await tab.keyboard.press('Escape');
      const comments = await stack.call<{ comments: { id: number; content: string; images: string[] }[] }>('GET', `/api/posts/${noteId}/comments`);
      const comment = comments.body.data.comments.find((each) => each.content.includes('拍得真好'))!;
      expect(comment.images).toHaveLength(1);
      expect(comment.content).toContain(`[@${me.body.data.nickname}:${author.userId}]`);
      await page.locator('.sidebar .badge', { hasText: /^3$/ }).waitFor();
      await other.close();

      await page.locator('.sidebar .side-link', { hasText: '通知' }).click();
      const commented = page.locator('.notice', { hasText: '评论了你的笔记' }).filter({ hasText: '来互动的同学' });
      await commented.locator('.notice-cover .lazy-image.loaded').waitFor();
      // The author is mentioned in a comment on the author's own note: the comment's notification says it all.
      await commented.locator(`a.mention[href="/user/${author.userId}"]`).waitFor();
      expect(await page.locator('.notice', { hasText: '在评论中@了你' }).count()).toBe(0);
      await page.getByRole('tab', { name: '赞' }).locator('.unread-dot').waitFor();
      await page.getByRole('tab', { name: '新增关注' }).locator('.unread-dot').waitFor();
      await page.screenshot({ path: shot('notifications-comments-1440.png') });
      await commented.getByRole('button', { name: '回复' }).click();
      await commented.getByRole('textbox', { name: '回复 来互动的同学' }).fill('谢谢喜欢～');
      await commented.getByRole('button', { name: '发送' }).click();
      await page.locator('.toast', { hasText: '回复成功' }).waitFor();
      await commented.getByRole('button', { name: '点赞评论' }).click();
      await commented.getByRole('button', { name: '取消点赞评论' }).filter({ hasText: '1' }).waitFor();
      const replies = await stack.call<{ comments: { content: string; user_id: string }[] }>('GET', `/api/comments/${comment.id}/replies`);
      expect(replies.body.data.comments.map((reply) => [reply.user_id, reply.content])).toEqual([[author.userId, '谢谢喜欢～']]);
      const liked = await stack.call<{ comments: { id: number; likeCount: number; isLiked: boolean }[] }>('GET', `/api/posts/${noteId}/comments`, undefined, author.token);
      expect(liked.body.data.comments.find((each) => each.id === comment.id)).toMatchObject({ likeCount: 1, isLiked: true });

      await page.getByRole('tab', { name: '赞' }).click();
      await page.locator('.notice', { hasText: '赞了你的笔记' }).filter({ hasText: '来互动的同学' }).waitFor();
      await page.getByRole('tab', { name: '新增关注' }).click();
      const follow = page.locator('.notice', { hasText: '来互动的同学' });
      await follow.locator('.follow-button', { hasText: '回关' }).waitFor();
      await page.screenshot({ path: shot('notifications-follows-1440.png') });

      for (const [width, scheme] of [[375, 'light'], [375, 'dark'], [1440, 'dark']] as const) {
        const viewer = await suite.context(width, { ...(width === 375 ? PHONE : {}), colorScheme: scheme });
        await signInAs(viewer, author);
        const seen = await open(viewer);
        await seen.goto('/notification');
        await seen.locator('.notice', { hasText: '评论了你的笔记' }).first().locator('.notice-cover .lazy-image.loaded').waitFor();
        await seen.screenshot({ path: shot(`notifications-comments-${width}-${scheme}.png`) });
        await viewer.close();
      }
    });

    it('on a phone: swipes between a note’s images, plays a video note, and reorders images by long-press', async () => {
      const phone = await suite.context(375, PHONE);
      await signInAs(phone, author);
      const small = await open(phone);
      await small.goto(`/post?id=${noteId}`);
      await small.locator('.gallery-image').click();
      await small.locator('.viewer-counter', { hasText: '1 / 2' }).waitFor();
      await touchDrag(small, { x: 300, y: 400 }, { x: 80, y: 410 });
      await small.locator('.viewer-counter', { hasText: '2 / 2' }).waitFor();
      await touchDrag(small, { x: 100, y: 400 }, { x: 130, y: 400 });
      await touchDrag(small, { x: 80, y: 400 }, { x: 320, y: 390 });
      await small.locator('.viewer-counter', { hasText: '1 / 2' }).waitFor();
      await small.locator('.viewer-close').click();
      await small.locator('.viewer').waitFor({ state: 'detached' });

      await small.goto(`/post?id=${videoNoteId}`);
      const video = small.locator('.gallery.video video');
      await video.waitFor();
      expect(await video.getAttribute('poster')).toBeTruthy();
      await small.screenshot({ path: shot('detail-video-375.png') });

      await small.goto('/publish');
      const colours = ['#e8a0b4', '#7bc8a4'];
      await small.getByLabel('选择图片').setInputFiles(await Promise.all(colours.map(async (background, index) => ({ name: `p${index}.png`, mimeType: 'image/png', buffer: await sharp({ create: { width: 300, height: 300, channels: 3, background } }).png().toBuffer() }))));
      await small.locator('.upload-item').nth(1).waitFor();
      const order = () => small.locator('.upload-item').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.id));
      const before = await order();
      // A short press that moves is a scroll, not a pick-up: nothing moves.
      await touchDrag(small, await centre(small, '.upload-item', 0), await centre(small, '.upload-item', 1));
      expect(await order()).toEqual(before);
      await touchDrag(small, await centre(small, '.upload-item', 0), await centre(small, '.upload-item', 1), () => small.locator('.upload-item.dragging').waitFor());
      expect(await order()).toEqual([...before].reverse());
      await small.locator('.upload-item.dragging').waitFor({ state: 'detached' });
      await small.screenshot({ path: shot('publish-images-375.png') });
      await phone.close();
    });

    it('shows the pickers, the text image and verification at 375 px in dark, and at 1440 px in dark', async () => {
      const phone = await suite.context(375, { ...PHONE, colorScheme: 'dark' });
      await signInAs(phone, author);
      const small = await open(phone);
      await small.goto(`/post?id=${noteId}`);
      await small.getByRole('textbox', { name: '评论' }).click();
      await small.getByRole('button', { name: '表情', exact: true }).click();
      await small.getByRole('dialog', { name: '选择表情' }).waitFor();
      await small.screenshot({ path: shot('emoji-picker-375-dark.png') });
      await small.getByRole('button', { name: '表情', exact: true }).click();
      await small.getByRole('button', { name: '@用户' }).click();
      await small.getByRole('dialog', { name: '选择要@的人' }).getByLabel('搜索用户').fill('一起看花');
      await small.locator('.mention-user').first().waitFor();
      await small.screenshot({ path: shot('mention-picker-375-dark.png') });
      await small.goto('/publish');
      await small.getByRole('button', { name: '文字配图' }).click();
      await small.getByLabel('配图文字').fill('期末加油');
      await small.getByRole('radio', { name: '晚霞' }).click();
      await small.getByRole('img', { name: '文字配图预览' }).waitFor();
      await small.screenshot({ path: shot('text-image-375-dark.png') });
      await small.goto('/explore');
      await small.getByRole('button', { name: '更多' }).first().click();
      await small.getByRole('menuitem', { name: '账号与安全' }).click();
      await small.getByLabel('真实姓名').waitFor();
      await small.screenshot({ path: shot('verification-375-dark.png') });
      await phone.close();

      const wide = await suite.context(1440, { colorScheme: 'dark' });
      await signInAs(wide, author);
      const large = await open(wide);
      await large.goto('/publish');
      await large.getByRole('button', { name: '表情', exact: true }).click();
      await large.getByRole('dialog', { name: '选择表情' }).waitFor();
      await large.screenshot({ path: shot('publish-emoji-1440-dark.png') });
      await large.keyboard.press('Escape');
      await large.getByRole('button', { name: '文字配图' }).click();
      await large.getByLabel('配图文字').fill('图书馆\n见');
      await large.getByRole('radio', { name: '笔记本' }).click();
      await large.getByRole('img', { name: '文字配图预览' }).waitFor();
      await large.screenshot({ path: shot('text-image-1440-dark.png') });
      await wide.close();
    });

    it('applies for verification with the personal form, sees it pending and revokes it', async () => {
      await page.goto('/explore');
      await page.locator('.sidebar').getByRole('button', { name: '更多' }).click();
      await page.getByRole('menuitem', { name: '账号与安全' }).click();
      const dialog = page.getByRole('dialog', { name: '账号与安全' });
      await dialog.getByRole('button', { name: '提交申请' }).click();
      await dialog.getByText('请填写真实姓名').waitFor();
      await dialog.getByLabel('真实姓名').fill('林小柳');
      await dialog.getByLabel('身份证号').fill('1234');
      await dialog.getByLabel('职业').fill('学生');
      await dialog.getByLabel('申请理由').fill('校园摄影社社长，常发活动照片');
      await dialog.getByRole('button', { name: '提交申请' }).click();
      await dialog.getByText('身份证号格式不正确').waitFor();
      await dialog.getByLabel('身份证号').fill('11010519491231002X');
      await page.screenshot({ path: shot('verification-form-1440.png') });
      await dialog.getByRole('button', { name: '提交申请' }).click();
      await page.locator('.toast', { hasText: '认证申请提交成功，请耐心等待审核' }).waitFor();
      await dialog.locator('.verify-card[data-status="0"]', { hasText: '审核中' }).waitFor();
      await page.screenshot({ path: shot('verification-pending-1440.png') });
      await dialog.getByRole('button', { name: '撤回申请' }).click();
      await page.locator('.confirm').getByRole('button', { name: '撤回' }).click();
      await page.locator('.toast', { hasText: '认证申请已撤回' }).waitFor();
      await dialog.getByLabel('真实姓名').waitFor();
      await dialog.getByRole('radio', { name: '官方认证' }).click();
      await dialog.getByLabel('统一社会信用代码').waitFor();
      await page.keyboard.press('Escape');
    });

    it('changes the password, signs in with the new one, and deletes the account', async () => {
      const student = await stack.signUp('要注销的同学');
      const own = await suite.context(1440);
      const tab = await open(own);
      const account = async () => {
        await tab.locator('.sidebar').getByRole('button', { name: '更多' }).click();
        await tab.getByRole('menuitem', { name: '账号与安全' }).click();
        return tab.getByRole('dialog', { name: '账号与安全' });
      };
      await tab.goto('/explore');
      await logIn(tab, student.userId, 'secret-123');
      let dialog = await account();
      await dialog.getByLabel('当前密码').fill('not-my-password');
      await dialog.getByLabel('新密码', { exact: true }).fill('fresh-456');
      await dialog.getByLabel('确认新密码').fill('fresh-457');
      await dialog.getByRole('button', { name: '修改密码' }).click();
      await dialog.getByText('两次输入的新密码不一致').waitFor();
      await dialog.getByLabel('确认新密码').fill('fresh-456');
      suite.provoked.push(/\/api\/users\/[^/]+\/password$/);
      await dialog.getByRole('button', { name: '修改密码' }).click();
      await dialog.getByText('当前密码输入错误，请检查后重新输入').waitFor();
      expect(await dialog.getByLabel('当前密码').inputValue()).toBe('');
      await dialog.getByLabel('当前密码').fill('secret-123');
      await dialog.getByRole('button', { name: '修改密码' }).click();
      // Logged out where they are, told why, with the login dialog open (closed here so that logIn opens it as usual).
      await tab.locator('.toast', { hasText: '密码已修改，请重新登录' }).waitFor();
      await tab.locator('.auth-modal').waitFor();
      await tab.keyboard.press('Escape');
      await tab.locator('.sidebar').getByRole('button', { name: '登录' }).waitFor();
      expect((await stack.call('POST', '/api/auth/login', { user_id: student.userId, password: 'secret-123' })).status).not.toBe(200);
      await logIn(tab, student.userId, 'fresh-456');

      dialog = await account();
      await dialog.getByRole('button', { name: '注销账号' }).click();
      await tab.locator('.confirm', { hasText: '注销账号将永久删除您的所有数据，包括发布的内容、评论、收藏等，此操作不可恢复。确定要继续吗？' }).waitFor();
      await Promise.all([tab.waitForEvent('load'), tab.locator('.confirm').getByRole('button', { name: '注销' }).click()]);
      await tab.locator('.sidebar').getByRole('button', { name: '登录' }).waitFor();
      expect((await stack.call('GET', `/api/users/${student.userId}`)).status).toBe(404);
      await own.close();
    });

    it('installs a service worker that keeps the shell and no API answer, and shows the offline page', async () => {
      const offline = await suite.context(375);
      // A reader, not the author: 推荐 leaves a student's own notes out, and the notes here are the author's.
      await signInAs(offline, await stack.signUp('离线的读者'));
      const tab = await offline.newPage();
      await tab.goto('/explore');
      await tab.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await tab.reload();
      await cards(tab).first().waitFor();
      await tab.waitForFunction(() => navigator.serviceWorker.controller !== null);
      const cached = await tab.evaluate(async () => {
        const paths: string[] = [];
        for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
        return paths;
      });
      expect(cached).toEqual(expect.arrayContaining(['/offline.html', '/manifest.webmanifest', '/icon-192.png']));
      expect(cached.some((path) => path.startsWith('/assets/index-'))).toBe(true);
      expect(cached.filter((path) => path.startsWith('/api/'))).toEqual([]);
      await offline.setOffline(true);
      await tab.goto('/explore').catch(() => undefined);
      await tab.getByText('网络连接失败，请检查网络设置').waitFor();
      await tab.screenshot({ path: shot('offline-375.png') });
      await offline.setOffline(false);
      await offline.close();
    });

    it('shows publish, notifications and search at 375 px, light and dark', async () => {
      const phone = await suite.context(375, PHONE);
      await signInAs(phone, author);
      const small = await open(phone);
      await small.goto('/publish');
      await small.getByText('上传图文').waitFor();
      await small.screenshot({ path: shot('publish-375.png') });
      await small.goto('/notification');
      await small.getByRole('tab', { name: '赞' }).click();
      await small.locator('.notice').first().waitFor();
      await small.screenshot({ path: shot('notifications-375.png') });
      await small.goto(`/search_result/all?keyword=${encodeURIComponent('樱花')}`);
      await small.locator('article.card').first().waitFor();
      await small.screenshot({ path: shot('search-375.png') });
      await small.evaluate(() => localStorage.setItem('theme', 'dark'));
      await small.goto('/notification');
      await small.getByRole('tab', { name: '赞' }).click();
      await small.locator('.notice').first().waitFor();
      await small.screenshot({ path: shot('notifications-375-dark.png') });
      await small.goto('/post-management');
      await small.locator('.manage-item').first().waitFor();
      await small.screenshot({ path: shot('post-management-375-dark.png') });
      await phone.close();
    });
  });
}
