import { randomBytes, randomUUID } from 'node:crypto';
import { apiDocument } from '@shiliu/contracts';
import Ajv, { type ValidateFunction } from 'ajv';
import sharp from 'sharp';
import { waitFor } from '@shiliu/platform/testing';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ProductStack, type RunMode, startProductStack } from './product-stack';

type Method = 'get' | 'post' | 'put' | 'delete';
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

/**
 * Every documented operation's happy path, run in order as a student and an administrator would, against the
 * product in both run modes: each answer must be 200 and match the document's schema for it, and an operation
 * the walk does not reach fails the test (a new call needs its happy path here).
 */
describe.each<RunMode>(['distributed', 'embedded'])('every documented call answers its documented schema (%s mode)', (mode) => {
  const document = apiDocument();
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addSchema({ components: document.components }, 'openapi.json');
  const validators = new Map<string, ValidateFunction>();
  const reached = new Set<string>();
  let stack: ProductStack;

  /** The document's 200 schema of an operation, its references resolved against the document's components. */
  const validatorOf = (method: Method, template: string): ValidateFunction => {
    const key = `${method.toUpperCase()} ${template}`;
    if (!validators.has(key)) {
      const operation = (document.paths[template] as Record<Method, Operation> | undefined)?.[method];
      if (!operation) throw new Error(`${key} is not in the document`);
      const schema = operation.responses['200'].content!['application/json'].schema;
      validators.set(key, ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/')) as object));
    }
    return validators.get(key)!;
  };

  /** Calls one operation on its happy path; `template` names it as the document does, `path` fills it in. */
  const call = async <T>(method: Method, template: string, options: { path?: string; body?: unknown; form?: FormData; token?: string } = {}): Promise<T> => {
    const headers: Record<string, string> = { 'x-forwarded-for': stack.clientAddress };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const body = options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const answer = await fetch(stack.base + (options.path ?? template), { method: method.toUpperCase(), headers, body });
    const answered = (await answer.json()) as { data: T };
    const validate = validatorOf(method, template);
    expect([`${method.toUpperCase()} ${template}`, answer.status, validate(answered) ? [] : validate.errors]).toEqual([`${method.toUpperCase()} ${template}`, 200, []]);
    reached.add(`${method.toUpperCase()} ${template}`);
    return answered.data;
  };

  beforeAll(async () => {
    stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('walks a student and an administrator through every call', async () => {
    // Signing up, in, and the profile.
    const userId = `hp_${randomBytes(4).toString('hex')}`;
    await call('get', '/api/auth/check-user-id', { path: `/api/auth/check-user-id?user_id=${userId}` });
    const captcha = await call<{ captchaId: string }>('get', '/api/auth/captcha');
    await call('post', '/api/auth/register', { body: { user_id: userId, nickname: '快乐路径', password: 'secret-123', captchaId: captcha.captchaId, captchaText: stack.captchaAnswer } });
    const signedIn = await call<{ tokens: { access_token: string; refresh_token: string } }>('post', '/api/auth/login', { body: { user_id: userId, password: 'secret-123' } });
    const refreshed = await call<{ tokens: { access_token: string } }>('post', '/api/auth/refresh', { body: { refresh_token: signedIn.tokens.refresh_token } });
    const token = refreshed.tokens.access_token;
    const user = `/api/users/${userId}`;
    await call('get', '/api/auth/me', { token });
    await call('put', '/api/users/{user_id}', { path: user, token, body: { nickname: '改名了', bio: '你好', interests: ['摄影'] } });
    await call('get', '/api/users/{user_id}', { path: user });
    await call('get', '/api/users/{user_id}/personality-tags', { path: `${user}/personality-tags` });
    await call('get', '/api/users/search', { path: `/api/users/search?keyword=${userId}` });
    await call('post', '/api/users/verification', { token, body: { type: 2, content: { real_name: '林小雨', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' } } });
    await call('get', '/api/users/verification/status', { token });
    await call('delete', '/api/users/verification/revoke', { token });

    // A note with an image, its comments, reactions and the lists it shows up in.
    const key = `images/happy/${randomUUID()}.png`;
    await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 255, g: 36, b: 66 } } }).png().toBuffer(), 'image/png');
    const file = await fetch(`${stack.base}/api/files/${key}`);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'image/png']);
    reached.add('GET /api/files/{path}');
    await call('get', '/api/categories');
    const note = await call<{ id: number }>('post', '/api/posts', { token, body: { title: '快乐路径', content: '<p>正文</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['路径'] } });
    const post = `/api/posts/${note.id}`;
    await call('put', '/api/posts/{id}', { path: post, token, body: { title: '改过的标题', content: '<p>新正文</p>', category_id: 1, type: 1, images: [`/api/files/${key}`], tags: ['路径'] } });
    await call('get', '/api/posts/{id}', { path: `${post}?skipViewCount=true` });
    await call('get', '/api/posts/{id}/related', { path: `${post}/related?limit=5`, token });
    await call('get', '/api/posts', { path: '/api/posts?page=1&limit=10' });
    const comment = await call<{ id: number }>('post', '/api/comments', { token, body: { post_id: note.id, content: '第一条评论' } });
    const reply = await call<{ id: number }>('post', '/api/comments', { token, body: { post_id: note.id, content: '回复', parent_id: comment.id } });
    await call('get', '/api/posts/{id}/comments', { path: `${post}/comments`, token });
    await call('get', '/api/comments/{id}/replies', { path: `/api/comments/${comment.id}/replies`, token });
    await call('post', '/api/likes', { token, body: { target_type: 1, target_id: note.id } });
    await call('post', '/api/posts/{id}/collect', { path: `${post}/collect`, token });
    await call('get', '/api/users/{user_id}/posts', { path: `${user}/posts`, token });
    await call('get', '/api/users/{user_id}/collections', { path: `${user}/collections`, token });
    await call('get', '/api/users/{user_id}/likes', { path: `${user}/likes`, token });
    await call('get', '/api/tags');
    await call('get', '/api/tags/hot');
    // Searching, once search has indexed the note: its title's words, the header panel's completions.
    const keyword = encodeURIComponent('标题');
    await waitFor('search to find the note', async () => {
      const answer = await fetch(`${stack.base}/api/search/posts?keyword=${keyword}`, { headers: { 'x-forwarded-for': stack.clientAddress } });
      return answer.ok && ((await answer.json()) as { data: { posts: unknown[] } }).data.posts.length > 0;
    });
    await call('get', '/api/search', { path: `/api/search?keyword=${keyword}&type=all`, token });
    await call('get', '/api/search/posts', { path: `/api/search/posts?keyword=${keyword}`, token });
    await call('get', '/api/search/suggest', { path: `/api/search/suggest?keyword=${encodeURIComponent('改过')}` });
    await call('delete', '/api/likes', { token, body: { target_type: 1, target_id: note.id } });
    await call('delete', '/api/posts/{id}/collect', { path: `${post}/collect`, token });
    await call('delete', '/api/comments/{id}', { path: `/api/comments/${reply.id}`, token });
    await call('delete', '/api/posts/{id}', { path: post, token });

    // Following another student, and the cards, states, lists and counters that show it.
    const friend = await stack.signUp('快乐的朋友');
    const friendPath = `/api/users/${friend.userId}`;
    await waitFor('the social service to know the new student', async () => (await fetch(`${stack.base}${friendPath}/card`)).ok);
    await call('post', '/api/users/{user_id}/follow', { path: `${friendPath}/follow`, token });
    await call('post', '/api/users/{user_id}/follow', { path: `${user}/follow`, token: friend.token });
    await call('get', '/api/users/{user_id}/follow-status', { path: `${friendPath}/follow-status`, token });
    await call('get', '/api/users/follow-status', { path: `/api/users/follow-status?ids=${friend.userId},${userId}`, token });
    await call('get', '/api/users/{user_id}/following', { path: `${user}/following`, token });
    await call('get', '/api/users/{user_id}/followers', { path: `${user}/followers`, token });
    await call('get', '/api/users/{user_id}/mutual-follows', { path: `${user}/mutual-follows`, token });
    await call('get', '/api/users/{user_id}/stats', { path: `${user}/stats` });
    await call('get', '/api/users/{user_id}/card', { path: `${friendPath}/card`, token });
    await call('get', '/api/users/suggestions', { path: '/api/users/suggestions?limit=5', token });
    await call('delete', '/api/users/{user_id}/follow', { path: `${friendPath}/follow`, token });

    // The friend's follow as a notification: the four tabs, the badge and its live stream, reading and deleting.
    const follows = await waitFor('the follow notification', async () => {
      const page = await call<{ notifications: { id: number }[] }>('get', '/api/notifications/follows', { token });
      return page.notifications.length > 0 ? page.notifications : null;
    });
    const { ticket } = await call<{ ticket: string }>('post', '/api/notifications/stream/ticket', { token });
    const stream = await fetch(`${stack.base}/api/notifications/stream?ticket=${ticket}`, { headers: { 'x-forwarded-for': stack.clientAddress } });
    expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: unread');
    await reader.cancel();
    reached.add('GET /api/notifications/stream');
    await call('get', '/api/notifications/comments', { token });
    await call('get', '/api/notifications/likes', { token });
    await call('get', '/api/notifications/collections', { token });
    await call('get', '/api/notifications/unread-count', { token });
    await call('get', '/api/notifications/unread-count-by-type', { token });
    await call('put', '/api/notifications/{id}/read', { path: `/api/notifications/${follows[0].id}/read`, token });
    await call('put', '/api/notifications/read-all', { path: '/api/notifications/read-all?type=follows', token });
    await call('delete', '/api/notifications/{id}', { path: `/api/notifications/${follows[0].id}`, token });
    // The friend's like of a note, asked grouped by note and day, and the group read at once.
    const likedKey = `images/happy/${randomUUID()}.png`;
    await stack.storage.put(likedKey, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 180, b: 120 } } }).png().toBuffer(), 'image/png');
    const liked = await call<{ id: number }>('post', '/api/posts', { token, body: { title: '被赞的笔记', content: '<p>正文</p>', category_id: 1, type: 1, images: [`/api/files/${likedKey}`], tags: [] } });
    await call('post', '/api/likes', { token: friend.token, body: { target_type: 1, target_id: liked.id } });
    const groups = await waitFor('the like to be grouped', async () => {
      const page = await call<{ groups: { type: number; target_id: number; day: string }[] }>('get', '/api/notifications/likes', { path: '/api/notifications/likes?group=target', token });
      return page.groups.length > 0 ? page.groups : null;
    });
    await call('get', '/api/notifications/collections', { path: '/api/notifications/collections?group=target', token });
    await call('put', '/api/notifications/groups/read', { token, body: { type: groups[0].type, target_id: groups[0].target_id, day: groups[0].day } });

    // Uploads: images one by one and several at once, and a video with its processing job.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } } }).png().toBuffer();
    const form = (field: string, ...files: { bytes: Buffer; name: string; type: string }[]) => {
      const data = new FormData();
      for (const each of files) data.append(field, new Blob([new Uint8Array(each.bytes)], { type: each.type }), each.name);
      return data;
    };
    const image = { bytes: png, name: 'photo.png', type: 'image/png' };
    await call('post', '/api/upload/single', { form: form('file', image), token });
    await call('post', '/api/upload/image', { form: form('image', image), token });
    await call('post', '/api/upload/multiple', { form: form('files', image, image), token });
    const clip = { bytes: await testVideo(), name: 'clip.mp4', type: 'video/mp4' };
    const video = await call<{ jobId: string }>('post', '/api/upload/video', { form: form('file', clip), token });
    await call('get', '/api/upload/video/jobs/{id}', { path: `/api/upload/video/jobs/${video.jobId}`, token });

    // The back office.
    const admin = await call<{ tokens: { access_token: string; refresh_token: string } }>('post', '/api/auth/admin/login', { body: { username: 'admin', password: stack.adminPassword } });
    const adminToken = (await call<{ tokens: { access_token: string } }>('post', '/api/auth/admin/refresh', { body: { refresh_token: admin.tokens.refresh_token } })).tokens.access_token;
    await call('get', '/api/auth/admin/me', { token: adminToken });
    await call('get', '/api/admin/monitor/activities', { token: adminToken });
    const created = await call<{ id: number | string }>('post', '/api/auth/admin/admins', { token: adminToken, body: { username: `ops_${randomBytes(3).toString('hex')}`, password: 'another-secret-1' } });
    await call('get', '/api/auth/admin/admins', { token: adminToken });
    await call('put', '/api/auth/admin/admins/{id}/password', { path: `/api/auth/admin/admins/${created.id}/password`, token: adminToken, body: { password: 'another-secret-2' } });
    await call('put', '/api/auth/admin/admins/{id}', { path: `/api/auth/admin/admins/${created.id}`, token: adminToken, body: { password: 'another-secret-3' } });
    await call('delete', '/api/auth/admin/admins/{id}', { path: `/api/auth/admin/admins/${created.id}`, token: adminToken });

    // The back office's tables, as the console drives them: each entity listed, created, edited and deleted.
    const t = adminToken;
    const tag = randomBytes(3).toString('hex');
    const letters = (hex: string) => hex.replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)]);
    await call('get', '/api/admin/users', { path: `/api/admin/users?search=${userId}&sortField=created_at&sortOrder=desc`, token: t });
    const madeUser = await call<{ id: number; user_id: string }>('post', '/api/admin/users', { token: t, body: { user_id: `hpa_${tag}`, nickname: '后台用户', password: 'secret-123' } });
    await call('put', '/api/admin/users/{id}', { path: `/api/admin/users/${madeUser.id}`, token: t, body: { nickname: '后台改名', mbti: 'INFP' } });
    const category = await call<{ id: number }>('post', '/api/admin/categories', { token: t, body: { name: `分类${tag}`, category_title: `happy${letters(tag)}` } });
    await call('get', '/api/admin/categories', { path: '/api/admin/categories?sortField=post_count', token: t });
    await call('put', '/api/admin/categories/{id}', { path: `/api/admin/categories/${category.id}`, token: t, body: { name: `分类改${tag}`, category_title: `renamed${letters(tag)}` } });
    await waitFor('content to know the friend', async () => (await fetch(`${stack.base}${friendPath}/posts`, { headers: { 'x-forwarded-for': stack.clientAddress } })).ok);
    const adminImage = `images/happy/${randomUUID()}.png`;
    await stack.storage.put(adminImage, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 36, g: 255, b: 66 } } }).png().toBuffer(), 'image/png');
    const noteForm = { title: '后台代发', content: '<p>后台</p>', category_id: category.id, type: 1, images: [`/api/files/${adminImage}`], tags: ['后台'] };
    const adminNote = await call<{ id: number }>('post', '/api/admin/posts', { token: t, body: { ...noteForm, user_id: friend.userId } });
    const spareNote = await call<{ id: number }>('post', '/api/admin/posts', { token: t, body: { ...noteForm, content: '<p>第二篇</p>', user_id: friend.userId } });
    await call('get', '/api/admin/posts', { path: `/api/admin/posts?user_display_id=${friend.userId}&sortField=like_count`, token: t });
    await call('get', '/api/admin/posts/{id}', { path: `/api/admin/posts/${adminNote.id}`, token: t });
    await call('put', '/api/admin/posts/{id}', { path: `/api/admin/posts/${adminNote.id}`, token: t, body: { ...noteForm, title: '后台改过', view_count: 7 } });
    const adminComment = await call<{ id: number }>('post', '/api/admin/comments', { token: t, body: { user_id: userId, post_id: adminNote.id, content: '后台评论' } });
    const spareComment = await call<{ id: number }>('post', '/api/admin/comments', { token: t, body: { user_id: userId, post_id: adminNote.id, content: '第二条' } });
    await call('get', '/api/admin/comments', { path: `/api/admin/comments?post_id=${adminNote.id}`, token: t });
    await call('put', '/api/admin/comments/{id}', { path: `/api/admin/comments/${adminComment.id}`, token: t, body: { content: '后台改过的评论' } });
    await call('delete', '/api/admin/comments/{id}', { path: `/api/admin/comments/${adminComment.id}`, token: t });
    await call('delete', '/api/admin/comments', { token: t, body: { ids: [spareComment.id] } });
    const adminTag = await call<{ id: number }>('post', '/api/admin/tags', { token: t, body: { name: `t${tag}` } });
    const spareTag = await call<{ id: number }>('post', '/api/admin/tags', { token: t, body: { name: `s${tag}` } });
    await call('get', '/api/admin/tags', { path: `/api/admin/tags?name=${tag}&sortField=use_count`, token: t });
    await call('put', '/api/admin/tags/{id}', { path: `/api/admin/tags/${adminTag.id}`, token: t, body: { name: `r${tag}` } });
    await call('delete', '/api/admin/tags/{id}', { path: `/api/admin/tags/${adminTag.id}`, token: t });
    await call('delete', '/api/admin/tags', { token: t, body: { ids: [spareTag.id] } });
    const like = await call<{ id: number }>('post', '/api/admin/likes', { token: t, body: { user_id: userId, target_type: 1, target_id: adminNote.id } });
    await call('get', '/api/admin/likes', { path: `/api/admin/likes?target_id=${adminNote.id}`, token: t });
    const movedLike = await call<{ id: number }>('put', '/api/admin/likes/{id}', { path: `/api/admin/likes/${like.id}`, token: t, body: { user_id: userId, target_type: 1, target_id: spareNote.id } });
    await call('delete', '/api/admin/likes/{id}', { path: `/api/admin/likes/${movedLike.id}`, token: t });
    const spareLike = await call<{ id: number }>('post', '/api/admin/likes', { token: t, body: { user_id: userId, target_type: 1, target_id: adminNote.id } });
    await call('delete', '/api/admin/likes', { token: t, body: { ids: [spareLike.id] } });
    const collection = await call<{ id: number }>('post', '/api/admin/collections', { token: t, body: { user_id: userId, post_id: adminNote.id } });
    await call('get', '/api/admin/collections', { path: `/api/admin/collections?post_id=${adminNote.id}`, token: t });
    const movedCollection = await call<{ id: number }>('put', '/api/admin/collections/{id}', { path: `/api/admin/collections/${collection.id}`, token: t, body: { user_id: userId, post_id: spareNote.id } });
    await call('delete', '/api/admin/collections/{id}', { path: `/api/admin/collections/${movedCollection.id}`, token: t });
    const spareCollection = await call<{ id: number }>('post', '/api/admin/collections', { token: t, body: { user_id: userId, post_id: adminNote.id } });
    await call('delete', '/api/admin/collections', { token: t, body: { ids: [spareCollection.id] } });
    const follow = await call<{ id: number }>('post', '/api/admin/follows', { token: t, body: { follower_id: userId, following_id: friend.userId } });
    // The friend's own follow goes first, so that the edit can turn the administrator's follow round.
    const friendsFollows = await call<{ data: { id: number }[] }>('get', '/api/admin/follows', { path: `/api/admin/follows?follower_display_id=${friend.userId}`, token: t });
    await call('delete', '/api/admin/follows', { token: t, body: { ids: friendsFollows.data.map((row) => row.id) } });
    const movedFollow = await call<{ id: number }>('put', '/api/admin/follows/{id}', { path: `/api/admin/follows/${follow.id}`, token: t, body: { follower_id: friend.userId, following_id: userId } });
    await call('delete', '/api/admin/follows/{id}', { path: `/api/admin/follows/${movedFollow.id}`, token: t });
    // From the friend, who never reacted to these notes: the student's unlike and uncollect events above may still be
    // on their way to notify, and each takes back the unread notification of its sender, type and note.
    const notification = await call<{ id: number }>('post', '/api/admin/notifications', { token: t, body: { user_id: userId, sender_id: friend.userId, type: 1, target_id: adminNote.id, post_id: adminNote.id } });
    await call('get', '/api/admin/notifications', { path: `/api/admin/notifications?user_display_id=${userId}&is_read=false`, token: t });
    await call('put', '/api/admin/notifications/{id}', { path: `/api/admin/notifications/${notification.id}`, token: t, body: { is_read: true } });
    await call('delete', '/api/admin/notifications/{id}', { path: `/api/admin/notifications/${notification.id}`, token: t });
    const spareNotification = await call<{ id: number }>('post', '/api/admin/notifications', { token: t, body: { user_id: userId, sender_id: friend.userId, type: 3, target_id: adminNote.id, post_id: adminNote.id } });
    await call('delete', '/api/admin/notifications', { token: t, body: { ids: [spareNotification.id] } });
    const personal = { real_name: '陈默', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' };
    const application = await call<{ id: number }>('post', '/api/admin/audit', { token: t, body: { user_id: madeUser.user_id, type: 2, content: personal } });
    await call('get', '/api/admin/audit', { path: `/api/admin/audit?status=0&type=2&user_display_id=${madeUser.user_id}`, token: t });
    await call('put', '/api/admin/audit/{id}/approve', { path: `/api/admin/audit/${application.id}/approve`, token: t });
    await call('put', '/api/admin/audit/{id}', { path: `/api/admin/audit/${application.id}`, token: t, body: { status: 0 } });
    await call('put', '/api/admin/audit/{id}/reject', { path: `/api/admin/audit/${application.id}/reject`, token: t, body: { reject_reason: '材料不全' } });
    await call('delete', '/api/admin/audit/{id}', { path: `/api/admin/audit/${application.id}`, token: t });
    const spareApplication = await call<{ id: number }>('post', '/api/admin/audit', { token: t, body: { user_id: madeUser.user_id, type: 2, content: personal } });
    await call('delete', '/api/admin/audit', { token: t, body: { ids: [spareApplication.id] } });
    await call('get', '/api/banned-words');
    const banned = await call<{ added: { id: number }[] }>('post', '/api/admin/banned-words', { token: t, body: { words: [`walk${tag}a`, `walk${tag}b`] } });
    await call('get', '/api/admin/banned-words', { path: `/api/admin/banned-words?keyword=walk${tag}&sortField=word&sortOrder=asc`, token: t });
    await call('delete', '/api/admin/banned-words/{id}', { path: `/api/admin/banned-words/${banned.added[0].id}`, token: t });
    await call('delete', '/api/admin/banned-words', { token: t, body: { ids: [banned.added[1].id] } });
    for (let i = 0; i < 2; i++) await call('post', '/api/auth/login', { body: { user_id: madeUser.user_id, password: 'secret-123' } });
    await call('get', '/api/admin/test-users', { token: t });
    await call('post', '/api/admin/sessions', { token: t, body: { user_id: madeUser.user_id, user_agent: 'happy-path' } });
    const sessions = await call<{ data: { id: string }[] }>('get', '/api/admin/sessions', { path: `/api/admin/sessions?user_display_id=${madeUser.user_id}&is_active=true`, token: t });
    await call('put', '/api/admin/sessions/{id}', { path: `/api/admin/sessions/${sessions.data[0].id}`, token: t, body: { is_active: false } });
    await call('delete', '/api/admin/sessions/{id}', { path: `/api/admin/sessions/${sessions.data[1].id}`, token: t });
    await call('delete', '/api/admin/sessions', { token: t, body: { ids: [sessions.data[0].id] } });
    const operator = await call<{ id: number }>('post', '/api/admin/admins', { token: t, body: { username: `op_${tag}`, password: 'another-secret-1' } });
    await call('get', '/api/admin/admins', { path: '/api/admin/admins?sortField=username&sortOrder=asc', token: t });
    await call('put', '/api/admin/admins/{id}', { path: `/api/admin/admins/${operator.id}`, token: t, body: { password: 'another-secret-2' } });
    await call('delete', '/api/admin/admins/{id}', { path: `/api/admin/admins/${operator.id}`, token: t });
    const spareOperator = await call<{ id: number }>('post', '/api/admin/admins', { token: t, body: { username: `sp_${tag}`, password: 'another-secret-1' } });
    await call('delete', '/api/admin/admins', { token: t, body: { ids: [spareOperator.id] } });
    await call('delete', '/api/admin/posts/{id}', { path: `/api/admin/posts/${adminNote.id}`, token: t });
    await call('delete', '/api/admin/posts', { token: t, body: { ids: [spareNote.id] } });
    await call('delete', '/api/admin/categories/{id}', { path: `/api/admin/categories/${category.id}`, token: t });
    const spareCategory = await call<{ id: number }>('post', '/api/admin/categories', { token: t, body: { name: `备用${tag}`, category_title: `spare${letters(tag)}` } });
    await call('delete', '/api/admin/categories', { token: t, body: { ids: [spareCategory.id] } });
    const spareUser = await call<{ id: number }>('post', '/api/admin/users', { token: t, body: { user_id: `hpb_${tag}`, nickname: '备用用户', password: 'secret-123' } });
    await call('delete', '/api/admin/users', { token: t, body: { ids: [spareUser.id] } });
    await call('delete', '/api/admin/users/{id}', { path: `/api/admin/users/${madeUser.id}`, token: t });
    await waitFor('the audit log to record the deletion', async () => {
      const log = await call<{ data: { entity: string }[] }>('get', '/api/admin/monitor/admin-actions', { path: '/api/admin/monitor/admin-actions?entity=users&method=DELETE', token: t });
      return log.data.length >= 2;
    });
    await call('post', '/api/auth/admin/logout', { token: adminToken });

    // Leaving: a new password, signing out, and the account deleted.
    await call('put', '/api/users/{user_id}/password', { path: `${user}/password`, token, body: { currentPassword: 'secret-123', newPassword: 'secret-456' } });
    const again = await call<{ tokens: { access_token: string } }>('post', '/api/auth/login', { body: { user_id: userId, password: 'secret-456' } });
    await call('post', '/api/auth/logout', { token: again.tokens.access_token });
    const last = await call<{ tokens: { access_token: string } }>('post', '/api/auth/login', { body: { user_id: userId, password: 'secret-456' } });
    await call('delete', '/api/users/{user_id}', { path: user, token: last.tokens.access_token });

    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.filter((operation) => !reached.has(operation))).toEqual([]);
  }, 300_000);
});

/** A one-second H.264 clip made by ffmpeg, as a phone would upload one. */
async function testVideo(): Promise<Buffer> {
  const directory = await mkdtemp(join(tmpdir(), 'shiliu-clip-'));
  try {
    const path = join(directory, 'clip.mp4');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', path]);
    return await readFile(path);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
