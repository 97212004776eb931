import {
  commentCreated,
  commentDeleted,
  commentLiked,
  commentUnliked,
  postCollected,
  postDeleted,
  postLiked,
  postPublished,
  postUnliked,
  postUpdated,
  userDeleted,
  userFollowed,
  userMentioned,
  userUnfollowed,
  userUpdated,
  userVerified,
} from '@shiliu/contracts';
import { commentSnapshot, NotifyTestApp, postSnapshot, type TestUser } from './notify-test-app';

interface Notification {
  id: number;
  type: number;
  title: string;
  is_read: number;
  from_user_id: string;
  from_user_auto_id: number;
  from_nickname: string;
  from_avatar: string;
  from_verified: number;
  post_image: string | null;
  target_id: number;
  target_type: number;
  post_id: number | null;
  comment_id: number | null;
  comment_content: string | null;
  comment_is_liked: boolean;
  comment_like_count: number;
  parent_comment_content: string | null;
  post_author_id: number | null;
  follow_count: number;
  fans_count: number;
}

interface Page {
  notifications: Notification[];
  pagination: { page: number; limit: number; total: number; pages: number };
}

type Counts = Record<'comments' | 'likes' | 'collections' | 'follows' | 'total' | 'count', number>;

/** Every notification type from the events that cause it, with the spec's fields and rules, through the HTTP calls. */
describe('notifications', () => {
  let app: NotifyTestApp;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
  });

  afterAll(async () => {
    await app?.close();
  });

  const tab = async (who: TestUser, name: string, query = '') => {
    const answer = await app.call<Page>('GET', `/api/notifications/${name}${query}`, { token: who.token });
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const counts = async (who: TestUser) => (await app.call<Counts>('GET', '/api/notifications/unread-count-by-type', { token: who.token })).body.data;
  const like = (post: { id: number; author_id: number }, who: TestUser) =>
    app.deliver(postLiked.type, { post_id: post.id, post_author_id: post.author_id, user_id: who.id, count: 1 });
  const unlike = (post: { id: number; author_id: number }, who: TestUser) =>
    app.deliver(postUnliked.type, { post_id: post.id, post_author_id: post.author_id, user_id: who.id, count: 0 });

  afterEach(async () => {
    expect(await app.counterDrift()).toEqual([]);
  });

  it('makes each of the eight types with every field of the spec', async () => {
    const author = await app.user({ nickname: '作者' });
    const fan = await app.user({ nickname: '粉丝', verified: 2 });
    const post = postSnapshot(author, { images: ['/api/files/images/a.png', '/api/files/images/b.png'] });
    await app.deliver(postPublished.type, { post });

    await like(post, fan);
    await app.deliver(postCollected.type, { post_id: post.id, post_author_id: author.id, user_id: fan.id, count: 1 });
    const comment = commentSnapshot(post, fan, '写得真好');
    await app.deliver(commentCreated.type, { comment });
    const answer = commentSnapshot(post, author, '谢谢', { comment });
    await app.deliver(commentCreated.type, { comment: answer });
    const authorsComment = commentSnapshot(post, author, '补充一点');
    await app.deliver(commentCreated.type, { comment: authorsComment });
    await app.deliver(commentLiked.type, { comment_id: authorsComment.id, post_id: post.id, comment_author_id: author.id, user_id: fan.id, count: 1 });
    await app.deliver(userFollowed.type, {
      follower_id: fan.id, follower_user_id: fan.userId, following_id: author.id, following_user_id: author.userId, follower_follow_count: 3, following_fans_count: 1,
    });
    const mention = commentSnapshot(post, fan, '@作者 看这里');
    await app.deliver(commentCreated.type, { comment: { ...mention, post_author_id: 999_999 } });
    const other = postSnapshot(fan);
    await app.deliver(postPublished.type, { post: other });
    await app.deliver(userMentioned.type, { source: 'post', post_id: other.id, comment_id: null, mentioned_user_id: author.id, author_id: fan.id });
    await app.deliver(userMentioned.type, { source: 'comment', post_id: post.id, comment_id: mention.id, mentioned_user_id: author.id, author_id: fan.id });

    expect(await counts(author)).toEqual({ comments: 3, likes: 2, collections: 1, follows: 1, total: 7, count: 7 });
    expect((await app.call<Counts>('GET', '/api/notifications/unread-count', { token: author.token })).body.data.count).toBe(7);
    expect(await counts(fan)).toEqual({ comments: 1, likes: 0, collections: 0, follows: 0, total: 1, count: 1 });

    const likes = (await tab(author, 'likes')).notifications;
    expect(likes.map((n) => n.type)).toEqual([2, 1]);
    expect(likes[1]).toEqual({
      id: expect.any(Number),
      type: 1,
      title: '赞了你的笔记',
      is_read: 0,
      created_at: expect.any(String),
      from_user_id: fan.userId,
      from_user_auto_id: fan.id,
      from_nickname: '粉丝',
      from_avatar: expect.stringContaining('/api/files/avatars/'),
      from_verified: 2,
      post_image: '/api/files/images/a.png',
      target_id: post.id,
      target_type: 1,
      post_id: post.id,
      comment_id: null,
      comment_content: null,
      comment_is_liked: false,
      comment_like_count: 0,
      parent_comment_content: null,
      post_author_id: author.id,
      follow_count: 3,
      fans_count: 0,
    });
    expect(likes[0]).toMatchObject({ type: 2, title: '赞了你的评论', target_id: authorsComment.id, target_type: 2, comment_id: authorsComment.id, comment_content: '补充一点', comment_like_count: 1 });

    expect((await tab(author, 'collections')).notifications).toMatchObject([{ type: 3, title: '收藏了你的笔记', target_id: post.id, post_image: '/api/files/images/a.png' }]);
    expect((await tab(author, 'follows')).notifications).toMatchObject([{ type: 6, title: '关注了你', target_type: 3, target_id: fan.id, follow_count: 3, from_user_id: fan.userId }]);
    const comments = (await tab(author, 'comments')).notifications;
    expect(comments.map((n) => n.type)).toEqual([7, 8, 4]);
    expect(comments[0]).toMatchObject({ title: '在评论中@了你', comment_id: mention.id, comment_content: '@作者 看这里', post_id: post.id });
    expect(comments[1]).toMatchObject({ title: '在笔记中@了你', target_id: other.id, target_type: 1, post_id: other.id, comment_id: null });
    expect(comments[2]).toMatchObject({ title: '评论了你的笔记', comment_id: comment.id, comment_content: '写得真好', comment_is_liked: false, post_author_id: author.id });

    const reply = (await tab(fan, 'comments')).notifications;
    expect(reply).toMatchObject([{ type: 5, title: '回复了你的评论', from_user_id: author.userId, comment_id: answer.id, comment_content: '谢谢', parent_comment_content: '写得真好' }]);

    // The recipient likes the comment in place: the page shows it as liked, with its count.
    await app.deliver(commentLiked.type, { comment_id: comment.id, post_id: post.id, comment_author_id: fan.id, user_id: author.id, count: 4 });
    expect((await tab(author, 'comments')).notifications[2]).toMatchObject({ comment_is_liked: true, comment_like_count: 4 });
  });

  it('never notifies of one’s own action, and a sender notifies once per type and target', async () => {
    const author = await app.user();
    const fan = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await like(post, author);
    await app.deliver(commentCreated.type, { comment: commentSnapshot(post, author, '自己评论自己') });
    expect((await counts(author)).total).toBe(0);

    await like(post, fan);
    await like(post, fan);
    expect((await tab(author, 'likes')).pagination.total).toBe(1);

    // Unliking while unread takes it away; liking again brings back the same one.
    const [first] = (await tab(author, 'likes')).notifications;
    await unlike(post, fan);
    expect((await tab(author, 'likes')).notifications).toEqual([]);
    expect((await counts(author)).likes).toBe(0);
    await like(post, fan);
    const again = (await tab(author, 'likes')).notifications;
    expect(again.map((n) => n.id)).toEqual([first.id]);
    expect((await counts(author)).likes).toBe(1);

    // Once read it stays, unliked or not, and liking again adds nothing.
    await app.call('PUT', `/api/notifications/${first.id}/read`, { token: author.token });
    await unlike(post, fan);
    await like(post, fan);
    expect((await tab(author, 'likes')).notifications).toMatchObject([{ id: first.id, is_read: 1 }]);
    expect((await counts(author)).likes).toBe(0);

    // Unfollowing while unread takes the follow notification away too; unliking a comment its like.
    await app.deliver(userFollowed.type, { follower_id: fan.id, follower_user_id: fan.userId, following_id: author.id, following_user_id: author.userId, follower_follow_count: 1, following_fans_count: 1 });
    await app.deliver(userUnfollowed.type, { follower_id: fan.id, follower_user_id: fan.userId, following_id: author.id, following_user_id: author.userId, follower_follow_count: 0, following_fans_count: 0 });
    expect((await tab(author, 'follows')).notifications).toEqual([]);
    const comment = commentSnapshot(post, author, '点赞我');
    await app.deliver(commentCreated.type, { comment });
    await app.deliver(commentLiked.type, { comment_id: comment.id, post_id: post.id, comment_author_id: author.id, user_id: fan.id, count: 1 });
    await app.deliver(commentUnliked.type, { comment_id: comment.id, post_id: post.id, comment_author_id: author.id, user_id: fan.id, count: 0 });
    expect((await tab(author, 'likes')).notifications.map((n) => n.type)).toEqual([1]);
  });

  it('a reply that also mentions the replied-to user notifies them once, as a reply', async () => {
    const author = await app.user();
    const fan = await app.user();
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    const comment = commentSnapshot(post, fan, '好看');
    await app.deliver(commentCreated.type, { comment });
    const reply = commentSnapshot(post, author, '@粉丝 谢谢', { comment });
    await app.deliver(commentCreated.type, { comment: reply });
    await app.deliver(userMentioned.type, { source: 'comment', post_id: post.id, comment_id: reply.id, mentioned_user_id: fan.id, author_id: author.id });
    expect((await tab(fan, 'comments')).notifications).toMatchObject([{ type: 5, comment_id: reply.id }]);
    expect((await counts(fan)).comments).toBe(1);

    // A top-level comment mentioning the note's author: one notification too, the comment.
    const mentioning = commentSnapshot(post, fan, '@作者 你好');
    await app.deliver(commentCreated.type, { comment: mentioning });
    await app.deliver(userMentioned.type, { source: 'comment', post_id: post.id, comment_id: mentioning.id, mentioned_user_id: author.id, author_id: fan.id });
    expect((await tab(author, 'comments')).notifications.filter((n) => n.comment_id === mentioning.id).map((n) => n.type)).toEqual([4]);
  });

  it('deleting a note, a comment or an account removes what they made meaningless', async () => {
    const author = await app.user();
    const fan = await app.user();
    const gone = await app.user();
    const post = postSnapshot(author);
    const kept = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await app.deliver(postPublished.type, { post: kept });
    await like(post, fan);
    await like(kept, fan);
    await like(kept, gone);
    const comment = commentSnapshot(kept, fan, '要删除的评论');
    await app.deliver(commentCreated.type, { comment });
    expect(await counts(author)).toMatchObject({ likes: 3, comments: 1 });

    await app.deliver(postDeleted.type, { id: post.id, author_id: author.id, was_draft: false, like_count: 1, collect_count: 0, comment_count: 0, images: [], video_url: null, cover_url: null });
    await app.deliver(commentDeleted.type, { id: comment.id, post_id: kept.id, post_author_id: author.id, author_id: fan.id, parent_id: null, like_count: 0 });
    await app.deliver(userDeleted.type, { id: gone.id, user_id: gone.userId });
    expect((await tab(author, 'likes')).notifications).toMatchObject([{ post_id: kept.id, from_user_id: fan.userId }]);
    expect((await tab(author, 'comments')).notifications).toEqual([]);
    expect(await counts(author)).toMatchObject({ likes: 1, comments: 0, total: 1 });

    // A like that arrives after the note's deletion (another topic) notifies no one.
    await like(post, fan);
    expect((await tab(author, 'likes')).pagination.total).toBe(1);
  });

  it('shows senders as they are now', async () => {
    const author = await app.user();
    const fan = await app.user({ nickname: '旧名字' });
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });
    await like(post, fan);
    await app.deliver(userUpdated.type, { user: { id: fan.id, user_id: fan.userId, nickname: '新名字', avatar: '/api/files/avatars/new.png', bio: '', location: '', verified: 0 } });
    await app.deliver(userVerified.type, { id: fan.id, user_id: fan.userId, verified: 1 });
    await app.deliver(postUpdated.type, { post: { ...post, images: ['/api/files/images/new-cover.png'] } });
    expect((await tab(author, 'likes')).notifications).toMatchObject([{ from_nickname: '新名字', from_avatar: '/api/files/avatars/new.png', from_verified: 1, post_image: '/api/files/images/new-cover.png' }]);
  });

  it('reads, reads all (or one tab), deletes, and pages newest first', async () => {
    const author = await app.user();
    const fans = [await app.user(), await app.user(), await app.user()];
    const posts = [postSnapshot(author), postSnapshot(author)];
    for (const post of posts) await app.deliver(postPublished.type, { post });
    for (const fan of fans) {
      await like(posts[0], fan);
      await app.deliver(postCollected.type, { post_id: posts[1].id, post_author_id: author.id, user_id: fan.id, count: 1 });
    }
    const page1 = await tab(author, 'likes', '?limit=2');
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect(page1.notifications.map((n) => n.from_user_auto_id)).toEqual([fans[2].id, fans[1].id]);
    expect((await tab(author, 'likes', '?limit=2&page=2')).notifications.map((n) => n.from_user_auto_id)).toEqual([fans[0].id]);

    const read = await app.call<Counts>('PUT', `/api/notifications/${page1.notifications[0].id}/read`, { token: author.token });
    expect(read.body).toMatchObject({ code: 200, data: { likes: 2, collections: 3, total: 5 } });
    // Reading it again changes nothing.
    expect((await app.call<Counts>('PUT', `/api/notifications/${page1.notifications[0].id}/read`, { token: author.token })).body.data.total).toBe(5);

    const likesRead = await app.call<Counts>('PUT', '/api/notifications/read-all?type=likes', { token: author.token });
    expect(likesRead.body.data).toMatchObject({ likes: 0, collections: 3, total: 3 });
    const removed = await app.call<Counts>('DELETE', `/api/notifications/${(await tab(author, 'collections')).notifications[0].id}`, { token: author.token });
    expect(removed.body.data).toMatchObject({ collections: 2, total: 2 });
    expect((await tab(author, 'collections')).pagination.total).toBe(2);
    // A deleted notification does not come back when its sender does the same again.
    await app.deliver(postCollected.type, { post_id: posts[1].id, post_author_id: author.id, user_id: fans[2].id, count: 3 });
    expect((await tab(author, 'collections')).pagination.total).toBe(2);

    const allRead = await app.call<Counts>('PUT', '/api/notifications/read-all', { token: author.token });
    expect(allRead.body.data).toEqual({ comments: 0, likes: 0, collections: 0, follows: 0, total: 0, count: 0 });
    expect((await tab(author, 'collections')).notifications.every((n) => n.is_read === 1)).toBe(true);
  });
});
