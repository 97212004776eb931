import { commentCreated, commentDeleted, commentUpdated, postDeleted, postPublished, userDeleted, userUpdated } from '@shiliu/contracts';
import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { commentSnapshot, NotifyTestApp, postSnapshot } from './notify-test-app';

interface Activity {
  id: number;
  type: string;
  user_id: string;
  target_id: number;
  post_id: number | null;
  avatar: string;
  nickname: string;
  description: string;
  content: string;
  created_at: string;
}

/** admin-and-startup.md §2.6: registrations, notes and comments, newest first, as the administrator's monitor shows them. */
describe('activity monitor', () => {
  let app: NotifyTestApp;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  const recent = async (query = '') => (await app.call<Activity[]>('GET', `/api/admin/monitor/activities${query}`, { token: await app.adminToken() })).body.data;

  it('lists registrations, published notes and comments with their authors as they are now', async () => {
    const author = await app.user({ nickname: '作者', bio: '你好' });
    const post = postSnapshot(author, { title: '春天的校园' });
    await app.deliver(postPublished.type, { post });
    const comment = commentSnapshot(post, author, '第一条评论');
    await app.deliver(commentCreated.type, { comment });
    await app.deliver(userUpdated.type, { user: { id: author.id, user_id: author.userId, nickname: '改名了', avatar: '/api/files/avatars/x.png', bio: '', location: '', verified: 0 } });

    expect(await recent()).toEqual([
      expect.objectContaining({ type: 'comment_publish', user_id: author.userId, target_id: comment.id, post_id: post.id, content: '第一条评论', description: '发表了评论', nickname: '改名了' }),
      expect.objectContaining({ type: 'post_publish', target_id: post.id, content: '春天的校园', description: '发布了笔记《春天的校园》', avatar: '/api/files/avatars/x.png' }),
      expect.objectContaining({ type: 'user_register', target_id: author.id, description: '注册了账号', content: '你好' }),
    ]);
    expect((await recent('?limit=1&page=3')).map((a) => a.type)).toEqual(['user_register']);
    expect(await recent('?limit=1&page=4')).toEqual([]);

    await app.deliver(commentUpdated.type, { comment: { ...comment, content_text: '管理员改过的评论' } });
    expect((await recent())[0]).toMatchObject({ type: 'comment_publish', target_id: comment.id, content: '管理员改过的评论' });
    expect(await app.query(`SELECT "content" FROM "comments" WHERE "id" = $1`, [comment.id])).toEqual([{ content: '管理员改过的评论' }]);

    await app.deliver(commentDeleted.type, { id: comment.id, post_id: post.id, post_author_id: author.id, author_id: author.id, parent_id: null, like_count: 0 });
    expect((await recent()).map((a) => a.type)).toEqual(['post_publish', 'user_register']);
    await app.deliver(postDeleted.type, { id: post.id, author_id: author.id, was_draft: false, like_count: 0, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
    await app.deliver(userDeleted.type, { id: author.id, user_id: author.userId });
    expect(await recent()).toEqual([]);
  });

  it('answers the list of activities itself as data, as the spec and the API document say', async () => {
    const author = await app.user({ nickname: '形状' });
    await app.deliver(postPublished.type, { post: postSnapshot(author, { title: '列表本身' }) });
    const answer = await app.call('GET', '/api/admin/monitor/activities?limit=5', { token: await app.adminToken() });
    expect([answer.status, Array.isArray(answer.body.data), documentedAnswerProblems('GET /api/admin/monitor/activities', answer.body)]).toEqual([200, true, []]);
    expect((answer.body.data as Activity[])[0]).toMatchObject({ type: 'post_publish', content: '列表本身', nickname: '形状' });
  });
});
