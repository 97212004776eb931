import type { BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { StackUser } from '../../gateway/test/product-stack';
import { browserSuite, signInAs } from './browser-kit';

// The spec's last rows (issue 44), each message provoked where its failure arises: a server that never answers (the
// page's clock moved past the 60 s or 300 s timeout), a batch where one image is refused, a file the browser cannot
// decode, a video it cannot load, a draft or note the server fails to give, a follow answered 401.
const suite = browserSuite({ mode: 'embedded', pictures: 'spec-messages', shotPrefix: 'spec-messages-' });
const { open, provoked, shot, ok, picture } = suite;

async function publish(by: StackUser, note: { title: string; is_draft?: boolean }): Promise<number> {
  return (await ok<{ id: number }>('POST', '/api/posts', { title: note.title, content: '<p>正文</p>', category_id: 1, type: 1, images: [await picture('#e8a0b4')], tags: [], is_draft: note.is_draft ?? false }, by.token)).id;
}

const png = async (name: string, background = '#7bc8a4') => ({ name, mimeType: 'image/png', buffer: await sharp({ create: { width: 300, height: 300, channels: 3, background } }).png().toBuffer() });
/** A file that says it is a PNG and is not one. */
const notAPicture = (name: string, bytes = 2048) => ({ name, mimeType: 'image/png', buffer: Buffer.alloc(bytes, 7) });

/**
 * Holds every request to the address unanswered, as a server that never answers; `asked(n)` waits for the n-th, by
 * which time the page has started that request's timeout.
 */
async function silent(page: Page, url: string | RegExp) {
  let count = 0;
  const waiting: { n: number; resolve: () => void }[] = [];
  await page.route(url, () => {
    count += 1;
    for (const each of waiting.filter((wait) => wait.n <= count)) each.resolve();
  });
  return (n = 1) => (count >= n ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ n, resolve })));
}

const toast = (page: Page, text: string) => page.locator('.toast', { hasText: text }).waitFor();
const publishButton = (page: Page) => page.locator('.publish-actions .button.primary');

/** Fills what a publish needs besides the media. */
async function fillNote(page: Page, title: string) {
  await page.getByPlaceholder('填写标题会有更多赞哦').fill(title);
  await page.getByPlaceholder('添加正文').fill('正文内容');
  await page.locator('.field select').selectOption({ index: 1 });
}

describe("the spec's messages where they arise (issue 44)", () => {
  let student: StackUser;
  let context: BrowserContext;

  beforeAll(async () => {
    student = await suite.stack().signUp('拾柳测试');
    context = await suite.context(1440);
    await signInAs(suite.stack(), context, student);
  });
  afterAll(() => context?.close());

  describe('timeouts, with a server that never answers', () => {
    it('abandons an image upload after 60 s with the upload timeout message', async () => {
      const page = await open(context);
      await page.clock.install();
      const asked = await silent(page, '**/api/upload/multiple');
      await page.goto('/publish');
      expect(await publishButton(page).textContent()).toBe('上传');
      await page.getByLabel('选择图片').setInputFiles(await png('slow.png'));
      await fillNote(page, '慢慢上传');
      await publishButton(page).click();
      await page.locator('.publish-actions .button.primary', { hasText: '上传中...' }).waitFor();
      await asked();
      await page.clock.fastForward(59_000);
      expect(await page.locator('.toast', { hasText: '上传超时' }).count()).toBe(0);
      await page.clock.fastForward(2_000);
      await toast(page, '上传超时，请检查网络连接或稍后重试');
      await page.screenshot({ path: shot('image-upload-timeout.png') });
      expect(await publishButton(page).textContent()).toBe('上传');
      await page.close();
    });

    it('abandons a video upload after 300 s and shows the failure on the video', async () => {
      const page = await open(context);
      await page.clock.install();
      const asked = await silent(page, '**/api/upload/video');
      await page.goto('/publish');
      await page.getByRole('tab', { name: '上传视频' }).click();
      // Not a video the browser can play: its thumbnail fails, which only warns.
      await page.getByLabel('选择视频').setInputFiles({ name: 'broken.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(4096, 1) });
      await toast(page, '缩略图生成失败，但不影响视频上传（视频加载失败）');
      await fillNote(page, '慢慢上传的视频');
      await publishButton(page).click();
      await page.getByRole('progressbar', { name: '上传进度' }).waitFor();
      await asked();
      await page.clock.fastForward(240_000);
      expect(await page.locator('.video-error').count()).toBe(0);
      await page.clock.fastForward(61_000);
      await toast(page, '视频上传失败：上传超时，请检查网络连接或稍后重试');
      await page.locator('.video-error', { hasText: '上传超时' }).waitFor();
      await page.screenshot({ path: shot('video-upload-timeout.png') });
      await page.close();
    });

    it('calls an uploaded video without an address abnormal data', async () => {
      const page = await open(context);
      await page.route('**/api/upload/video', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 200, message: 'ok', data: { url: '', coverUrl: null } }) }));
      await page.goto('/publish');
      await page.getByRole('tab', { name: '上传视频' }).click();
      await page.getByLabel('选择视频').setInputFiles({ name: 'odd.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(4096, 1) });
      await fillNote(page, '地址丢了的视频');
      await publishButton(page).click();
      await toast(page, '视频数据异常，请重新上传');
      await page.locator('.video-error', { hasText: '视频数据异常，请重新上传' }).waitFor();
      await page.close();
    });

    it('abandons a call after 60 s as a network failure: the note does not load', async () => {
      const id = await publish(student, { title: '等不到的笔记' });
      const page = await open(context);
      await page.clock.install();
      const detail = new RegExp(`/api/posts/${id}(\\?|$)`);
      const asked = await silent(page, detail);
      await page.goto(`/post?id=${id}`);
      await page.locator('.page-loading').waitFor();
      // The client tries a failed load three times, each waiting its 60 s.
      for (let attempt = 1; attempt <= 3; attempt++) {
        await asked(attempt);
        await page.clock.fastForward(61_000);
      }
      await page.getByText('加载笔记失败：网络连接失败，请检查网络设置').waitFor();
      await page.screenshot({ path: shot('note-timeout.png') });
      await page.unroute(detail);
      await page.getByRole('button', { name: '重试' }).click();
      await page.locator('.detail-title', { hasText: '等不到的笔记' }).waitFor();
      await page.close();
    });
  });

  describe('uploading images', () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(context);
    });
    afterAll(() => page?.close());

    it('keeps the good images of a batch where one is refused, says how many, and publishes after the bad one goes', async () => {
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles([await png('one.png', '#d9534f'), notAPicture('fake.png'), await png('three.png', '#5bc0de')]);
      await page.locator('.upload-item').nth(2).waitFor();
      await fillNote(page, '三张里坏了一张');
      provoked.push(/^\/api\/upload\/multiple$/);
      await publishButton(page).click();
      await toast(page, '2张图片上传成功，1张上传失败（fake.png: 不支持的文件类型）');
      // The two uploaded show their stored address, the refused one is still the local file.
      expect(await page.locator('.upload-item img[src^="/api/files/"]').count()).toBe(2);
      expect(await page.locator('.upload-item img[src^="blob:"]').count()).toBe(1);
      await page.locator('.upload-item').nth(1).getByText('上传失败').waitFor();
      // Not a picture at all: its tile stays plain instead of showing a broken image.
      await page.locator('.upload-item').nth(1).locator('img.broken').waitFor({ state: 'attached' });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: shot('partial-batch.png') });
      await page.getByRole('button', { name: '删除第 2 张图片' }).click();
      await publishButton(page).click();
      await toast(page, '发布成功');
      await page.waitForURL('**/post-management');
    });

    it('says none was uploaded when every image is refused, and all were when none is', async () => {
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles(notAPicture('fake.png'));
      await fillNote(page, '全坏了');
      provoked.push(/^\/api\/upload\/multiple$/);
      await publishButton(page).click();
      await toast(page, '上传失败，没有成功上传的图片');
      await page.getByLabel('选择图片').setInputFiles(await png('good.png'));
      await page.getByRole('button', { name: '删除第 1 张图片' }).click();
      await publishButton(page).click();
      await toast(page, '所有图片上传成功');
      await toast(page, '发布成功');
    });

    it('refuses a large file the browser cannot decode with 处理图片失败，请重试', async () => {
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles(notAPicture('broken.png', 900 * 1024));
      await toast(page, 'broken.png: 处理图片失败，请重试');
      expect(await page.locator('.upload-item').count()).toBe(0);
    });

    it('never deletes the last image of an image note', async () => {
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles([await png('a.png'), await png('b.png', '#5cb85c')]);
      await page.locator('.upload-item').nth(1).waitFor();
      await page.getByRole('button', { name: '删除第 2 张图片' }).click();
      const last = page.getByRole('button', { name: '删除第 1 张图片' });
      expect(await last.isDisabled()).toBe(true);
      expect(await last.getAttribute('title')).toBe('图文笔记至少保留一张图片');
      expect(await page.locator('.upload-item').count()).toBe(1);
      await page.screenshot({ path: shot('last-image.png') });
    });

    it("adds an image pasted into the note's text through the same checks, the text staying plain", async () => {
      await page.goto('/publish');
      const text = page.getByPlaceholder('添加正文');
      await text.fill('先写一句');
      const bytes = [...(await png('pasted.png', '#f0ad4e')).buffer];
      const paste = (type: string, name: string) =>
        text.evaluate(
          (field, [data, mime, fileName]) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([new Uint8Array(data as number[])], fileName as string, { type: mime as string }));
            transfer.setData('text/html', '<img src="x">');
            field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
          },
          [bytes, type, name] as const,
        );
      await paste('image/png', 'pasted.png');
      await page.locator('.upload-item img[alt="第 1 张图片"]').waitFor();
      expect(await text.inputValue()).toBe('先写一句');
      await paste('image/gif', 'moving.gif');
      await toast(page, 'moving.gif: 不支持的文件类型');
      expect(await page.locator('.upload-item').count()).toBe(1);
      await page.screenshot({ path: shot('pasted-image.png') });
    });
  });

  describe('notes and drafts', () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(context);
    });
    afterAll(() => page?.close());

    const serverError = (route: { fulfill(answer: { status: number; contentType: string; body: string }): Promise<void> }) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 500, message: '服务器内部错误', data: null }) });

    it('says 创建笔记失败 when the server fails to create the note', async () => {
      await page.goto('/publish');
      await page.getByLabel('选择图片').setInputFiles(await png('c.png'));
      await fillNote(page, '创建不了');
      provoked.push(/^\/api\/posts$/);
      await page.route('**/api/posts', (route) => (route.request().method() === 'POST' ? serverError(route) : route.continue()));
      await publishButton(page).click();
      await toast(page, '创建笔记失败');
      await page.unroute('**/api/posts');
    });

    it('says 加载草稿失败 with a retry when a draft fails to load, and only a missing one is 草稿不存在或已被删除', async () => {
      const draft = await publish(student, { title: '一份草稿', is_draft: true });
      provoked.push(/^\/api\/posts\/\d+$/);
      const detail = new RegExp(`/api/posts/${draft}\\?`);
      await page.route(detail, serverError);
      await page.goto(`/publish?draftId=${draft}&mode=edit`);
      await toast(page, '加载草稿失败：获取笔记失败');
      await page.getByText('加载草稿失败', { exact: true }).waitFor();
      await page.screenshot({ path: shot('draft-load-failed.png') });
      await page.unroute(detail);
      await page.getByRole('button', { name: '重试' }).click();
      expect(await page.getByPlaceholder('填写标题会有更多赞哦').inputValue()).toBe('一份草稿');

      await page.goto('/publish?draftId=999999&mode=edit');
      await toast(page, '草稿不存在或已被删除');
      await page.waitForURL('**/draft-box');
    });

    it('edits a published note: 请填写完整信息 without a title, 更新笔记失败 on a server error, then 更新成功', async () => {
      const note = await publish(student, { title: '要改的笔记' });
      await page.goto(`/publish?draftId=${note}&mode=edit`);
      const title = page.getByPlaceholder('填写标题会有更多赞哦');
      await title.waitFor();
      await title.fill('');
      await publishButton(page).click();
      await toast(page, '请填写完整信息');
      await title.fill('改好的笔记');
      provoked.push(/^\/api\/posts\/\d+$/);
      await page.route(`**/api/posts/${note}`, (route) => (route.request().method() === 'PUT' ? serverError(route) : route.continue()));
      await publishButton(page).click();
      await toast(page, '更新笔记失败');
      await page.unroute(`**/api/posts/${note}`);
      await publishButton(page).click();
      await toast(page, '更新成功');
      await page.waitForURL('**/post-management');
    });

    it('says 删除笔记失败 when the server fails to delete', async () => {
      const note = await publish(student, { title: '删不掉的笔记' });
      await page.goto('/post-management');
      const item = page.locator(`.manage-item[data-note-id="${note}"]`);
      await item.waitFor();
      provoked.push(/^\/api\/posts\/\d+$/);
      await page.route(`**/api/posts/${note}`, (route) => (route.request().method() === 'DELETE' ? serverError(route) : route.continue()));
      await item.getByRole('button', { name: '删除' }).click();
      await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
      await toast(page, '删除笔记失败');
      await page.unroute(`**/api/posts/${note}`);
    });
  });

  describe('following when a login is needed', () => {
    it("asks to log in and opens the login dialog after a 401 on the note's follow button", async () => {
      const author = await suite.stack().signUp('被关注的人');
      const note = await publish(author, { title: '作者的笔记' });
      const follower = await suite.stack().signUp('想关注的人');
      const own = await suite.context(1440);
      await signInAs(suite.stack(), own, follower);
      const page = await open(own);
      // The token and its refresh both refused, as when the session has been revoked elsewhere.
      provoked.push(/\/api\/users\/[^/]+\/follow$/, /\/api\/auth\/refresh$/);
      await page.route(/\/api\/(users\/[^/]+\/follow|auth\/refresh)$/, (route) => route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 401, message: '未授权访问', data: null }) }));
      await page.goto(`/post?id=${note}`);
      await page.locator('.detail-author .follow-button').click();
      await toast(page, '请先登录');
      await page.locator('.auth-modal').waitFor();
      await page.screenshot({ path: shot('follow-401.png') });
      await own.close();
    });

    it('asks to log in from the hover card when the stored session has no token', async () => {
      const author = await suite.stack().signUp('卡片上的作者');
      const note = await publish(author, { title: '悬停看作者' });
      const noToken = await suite.context(1440);
      const me = await ok<unknown>('GET', '/api/auth/me', undefined, student.token);
      await noToken.addInitScript((info) => localStorage.setItem('userInfo', info), JSON.stringify(me));
      const page = await open(noToken);
      // Without a token the follow state is not the visitor's to read.
      provoked.push(/\/api\/users\/[^/]+\/follow-status$/);
      await page.goto(`/post?id=${note}`);
      await page.locator('.detail-author-link').hover();
      const card = page.locator('.hover-card .follow-button');
      await card.click();
      await toast(page, '请先登录');
      await page.locator('.auth-modal').waitFor();
      await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
      await page.screenshot({ path: shot('follow-hover-no-token.png') });
      await noToken.close();
    });
  });

  it('registers with the default avatar, bio and location', async () => {
    const guest = await suite.context(1440);
    const page = await open(guest);
    const sent = new Promise<Record<string, unknown>>((resolve) => page.on('request', (request) => new URL(request.url()).pathname === '/api/auth/register' && resolve(request.postDataJSON() as Record<string, unknown>)));
    await page.goto('/explore');
    await page.locator('.sidebar').getByRole('button', { name: '登录' }).click();
    await page.getByRole('button', { name: '立即注册' }).click();
    await page.getByLabel('小石榴号').fill('new_student');
    await page.getByLabel('昵称').fill('新同学');
    await page.getByLabel('密码', { exact: true }).fill('secret123');
    await page.getByLabel('确认密码').fill('secret123');
    await page.getByRole('button', { name: '注册' }).click();
    for (const [index, char] of [...suite.stack().captchaAnswer].entries()) await page.getByLabel(`验证码第${index + 1}位`).fill(char);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: '确定' }).click()]);
    expect(await sent).toMatchObject({ avatar: '/default-avatar.svg', bio: '用户没有任何简介', location: '未知' });
    const user = await ok<{ avatar: string; bio: string; location: string }>('GET', '/api/users/new_student');
    expect(user).toMatchObject({ avatar: '/default-avatar.svg', bio: '用户没有任何简介' });
    await guest.close();
  });
});
