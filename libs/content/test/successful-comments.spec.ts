import { ContentTestApp, noteForm, type PostData, type TestUser } from './content-test-app';

interface CommentData {
  id: number;
  parent_id: number | null;
  content: string;
  user_id: string;
  nickname: string;
  isAuthor: boolean;
  isReply: boolean;
  replyTo: string | null;
  reply_count: number;
  replies: CommentData[];
  images: string[];
}

describe('comments and replies: successful cases', () => {
  let app: ContentTestApp;
  let author: TestUser;
  let reader: TestUser;
  let third: TestUser;
  let postId: number;

  const post = async () => (await app.call<PostData>('GET', `/api/posts/${postId}?skipViewCount=true`)).body.data;
  const comment = async (user: TestUser, content: string, parentId?: number) =>
    app.call<CommentData>('POST', '/api/comments', { token: user.token, body: { post_id: postId, content, parent_id: parentId ?? null } });

  beforeAll(async () => {
    app = await ContentTestApp.start();
    author = await app.user({ nickname: '作者本人' });
    reader = await app.user({ nickname: '读者' });
    third = await app.user({ nickname: '路过' });
    postId = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
  });

  afterAll(async () => {
    await app?.close();
  });

  it('posts a top-level comment, counts it on the note and sends comment.created', async () => {
    const answer = await comment(reader, '<p>拍得真好</p>');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('评论成功');
    expect(answer.body.data).toMatchObject({ content: '<p>拍得真好</p>', parent_id: null, user_id: reader.userId, nickname: '读者', isAuthor: false, isReply: false, reply_count: 0 });
    expect((await post()).comment_count).toBe(1);
    expect((await app.events('comment.created'))[0]).toMatchObject({
      topic: 'shiliu.comment',
      key: String(answer.body.data.id),
      payload: { comment: { id: answer.body.data.id, post_id: postId, post_author_id: author.id, author_id: reader.id, parent_id: null, reply_to_user_id: null, content_text: '拍得真好' }, post_comment_count: 1 },
    });
  });

  it('threads replies under the top-level comment, naming whom a reply to a reply answers', async () => {
    const top = (await comment(reader, '第一条')).body.data;
    const reply = (await comment(author, '谢谢', top.id)).body.data;
    expect(reply).toMatchObject({ parent_id: top.id, isReply: true, isAuthor: true, replyTo: null });
    const replyToReply = (await comment(third, '同问', reply.id)).body.data;
    expect(replyToReply).toMatchObject({ parent_id: top.id, replyTo: '作者本人' });
    await comment(reader, '第三条回复', top.id);
    const created = (await app.events('comment.created')).at(-2);
    expect(created).toMatchObject({ payload: { comment: { parent_id: top.id, reply_to_comment_id: reply.id, reply_to_user_id: author.id } } });

    const list = await app.call<{ comments: CommentData[]; pagination: { total: number } }>('GET', `/api/posts/${postId}/comments`);
    const listed = list.body.data.comments.find((c) => c.id === top.id)!;
    expect(listed.reply_count).toBe(3);
    expect(listed.replies.map((r) => r.content)).toEqual(['谢谢', '同问']);
    expect(listed.replies[0].isAuthor).toBe(true);

    const replies = await app.call<{ comments: CommentData[]; pagination: { total: number } }>('GET', `/api/comments/${top.id}/replies`);
    expect(replies.body.data.comments.map((r) => r.content)).toEqual(['谢谢', '同问', '第三条回复']);
    expect(replies.body.data.pagination.total).toBe(3);
    expect((await post()).comment_count).toBe(5);

    const ofReply = await app.call<{ comments: CommentData[]; pagination: { total: number; pages: number } }>('GET', `/api/comments/${reply.id}/replies`);
    expect(ofReply.status).toBe(200);
    expect(ofReply.body.data.comments).toEqual([]);
    expect(ofReply.body.data.pagination).toMatchObject({ total: 0, pages: 0 });
  });

  it('pages top-level comments five at a time, newest first unless asked for oldest first', async () => {
    for (let i = 0; i < 5; i++) await comment(third, `楼${i}`);
    const desc = await app.call<{ comments: CommentData[]; pagination: { total: number; limit: number } }>('GET', `/api/posts/${postId}/comments`);
    expect(desc.body.data.comments).toHaveLength(5);
    expect(desc.body.data.pagination).toMatchObject({ total: 7, limit: 5 });
    expect(desc.body.data.comments[0].content).toBe('楼4');
    const asc = await app.call<{ comments: CommentData[] }>('GET', `/api/posts/${postId}/comments?sort=asc&page=1&limit=2`);
    expect(asc.body.data.comments.map((c) => c.content)).toEqual(['<p>拍得真好</p>', '第一条']);
    const page2 = await app.call<{ comments: CommentData[] }>('GET', `/api/posts/${postId}/comments?page=2`);
    expect(page2.body.data.comments).toHaveLength(2);
  });

  it('accepts a comment that is only an uploaded image', async () => {
    const image = await app.image(100, 100);
    const answer = await comment(reader, `<img src="${image}">`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.images).toEqual([image]);
  });

  it('stores mentions in comments and sends user.mentioned on the comment topic', async () => {
    const answer = await comment(reader, `[@路过:${third.userId}] 快来看，还有 [@没这个人:ghost_user]`);
    expect(answer.body.data.content).toBe(`[@路过:${third.userId}] 快来看，还有 @没这个人`);
    const mentioned = await app.events('user.mentioned');
    expect(mentioned.at(-1)).toMatchObject({
      topic: 'shiliu.comment',
      key: String(answer.body.data.id),
      payload: { source: 'comment', post_id: postId, comment_id: answer.body.data.id, mentioned_user_id: third.id, author_id: reader.id },
    });
    expect(await app.query(`SELECT "user_id"::int AS "user_id" FROM "comment_mentions" WHERE "comment_id" = $1`, [answer.body.data.id])).toEqual([{ user_id: third.id }]);
  });

  it('deletes a reply alone, and a top-level comment with its replies', async () => {
    const top = (await comment(reader, '要删除的楼')).body.data;
    const r1 = (await comment(third, '回复一', top.id)).body.data;
    await comment(author, '回复二', top.id);
    await app.call('POST', '/api/likes', { token: author.token, body: { target_type: 2, target_id: r1.id } });
    const before = (await post()).comment_count;

    const one = await app.call('DELETE', `/api/comments/${r1.id}`, { token: third.token });
    expect(one.body).toEqual({ code: 200, message: '删除成功', data: { deletedCount: 1 } });
    expect((await app.call<{ comments: CommentData[] }>('GET', `/api/comments/${top.id}/replies`)).body.data.comments.map((c) => c.content)).toEqual(['回复二']);
    expect((await post()).comment_count).toBe(before - 1);
    expect(await app.query(`SELECT 1 FROM "likes" WHERE "target_type" = 2 AND "target_id" = $1`, [r1.id])).toEqual([]);

    const all = await app.call('DELETE', `/api/comments/${top.id}`, { token: reader.token });
    expect(all.body.data).toEqual({ deletedCount: 2 });
    expect((await post()).comment_count).toBe(before - 3);
    expect((await app.events('comment.deleted')).map((e) => (e.payload as { id: number }).id)).toEqual(expect.arrayContaining([r1.id, top.id]));
    expect((await app.call('GET', `/api/comments/${top.id}/replies`)).status).toBe(404);
  });

  it('takes the comments with a deleted note', async () => {
    const other = (await app.call<PostData>('POST', '/api/posts', { token: author.token, body: await noteForm(app) })).body.data.id;
    const c = (await app.call<CommentData>('POST', '/api/comments', { token: reader.token, body: { post_id: other, content: '沙发' } })).body.data;
    await app.call('DELETE', `/api/posts/${other}`, { token: author.token });
    expect(await app.query(`SELECT 1 FROM "comments" WHERE "id" = $1`, [c.id])).toEqual([]);
  });

  it('lets a client walk replies recursively to the end, each page answering only the direct children', async () => {
    const top = (await comment(reader, '递归的楼')).body.data;
    const first = (await comment(author, '回一', top.id)).body.data;
    await comment(third, '回回一', first.id);
    await comment(reader, '回二', top.id);

    const seen: number[] = [];
    const walk = async (id: number): Promise<void> => {
      for (let page = 1; ; page++) {
        const answer = await app.call<{ comments: CommentData[]; pagination: { pages: number } }>('GET', `/api/comments/${id}/replies?page=${page}&limit=2`);
        expect(answer.status).toBe(200);
        for (const child of answer.body.data.comments) {
          expect(child.parent_id).toBe(id);
          expect(seen).not.toContain(child.id);
          seen.push(child.id);
          await walk(child.id);
        }
        if (page >= answer.body.data.pagination.pages) return;
      }
    };
    await walk(top.id);
    expect(seen).toHaveLength(3);
  });

  it('answers both spellings of the fields the spec names twice, and a liked comment comes back liked', async () => {
    const mine = (await comment(reader, '点赞我')).body.data;
    expect((await app.call('POST', '/api/likes', { token: third.token, body: { target_type: 2, target_id: mine.id } })).status).toBe(200);

    const reloaded = (await app.call<{ comments: Record<string, unknown>[] }>('GET', `/api/posts/${postId}/comments?limit=100`, { token: third.token })).body.data.comments;
    const liked = reloaded.find((c) => c.id === mine.id)!;
    expect(liked).toMatchObject({ liked: true, isLiked: true, like_count: 1, likeCount: 1 });
    expect(liked.user_avatar).toBe(liked.avatar);
    expect(liked.author_verified).toBe(liked.verified);
    const anonymous = (await app.call<{ comments: Record<string, unknown>[] }>('GET', `/api/posts/${postId}/comments?limit=100`)).body.data.comments;
    expect(anonymous.find((c) => c.id === mine.id)).toMatchObject({ liked: false, isLiked: false, likeCount: 1 });

    const unliked = await app.call<{ likeCount: number }>('DELETE', '/api/likes', { token: third.token, body: { target_type: 2, target_id: mine.id } });
    expect(unliked.status).toBe(200);
    const after = (await app.call<{ comments: Record<string, unknown>[] }>('GET', `/api/posts/${postId}/comments?limit=100`, { token: third.token })).body.data.comments;
    expect(after.find((c) => c.id === mine.id)).toMatchObject({ liked: false, isLiked: false, likeCount: 0 });
  });
});
