import { postPublished } from '@shiliu/contracts';
import { asRun } from '@shiliu/platform';
import type { EntityManager } from 'typeorm';
import { NotificationType } from '../src/notifications/notification-type';
import { type NewNotification, NotificationRepository } from '../src/notifications/notification.repository';
import { UnreadCountRepository } from '../src/notifications/unread-count.repository';
import { NotifyTestApp, postSnapshot, type TestUser } from './notify-test-app';

/**
 * A consumer's run of events writes its new notifications in one statement at its end: what the run does between
 * sees them all the same, and the end state is the one event after event would leave.
 */
describe('notifications in a run of events', () => {
  let app: NotifyTestApp;
  let notifications: NotificationRepository;
  let unread: UnreadCountRepository;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
    notifications = app.service.app.get(NotificationRepository);
    unread = app.service.app.get(UnreadCountRepository);
  });

  afterAll(async () => {
    await app?.close();
  });

  const run = (work: (manager: EntityManager) => Promise<void>) => app.service.dataSource.transaction((manager) => asRun(manager, () => work(manager)));
  const like = (post: { id: number }, to: TestUser, from: TestUser): NewNotification => ({
    userId: to.id,
    senderId: from.id,
    type: NotificationType.likePost,
    targetId: post.id,
    postId: post.id,
    commentId: null,
    createdAt: new Date().toISOString(),
  });
  const senders = async (author: TestUser) =>
    ((await app.query(`SELECT "sender_id"::int AS "sender" FROM "notifications" WHERE "user_id" = $1 AND "hidden_by" IS NULL ORDER BY "id"`, [author.id])) as { sender: number }[]).map(
      (row) => row.sender,
    );

  it('leaves what one event after another would: in order, undone when undone later in the run, revived by a later run, never to oneself', async () => {
    const [author, first, second, third] = [await app.user(), await app.user(), await app.user(), await app.user()];
    const post = postSnapshot(author);
    await app.deliver(postPublished.type, { post });

    await run(async (manager) => {
      await notifications.add(manager, like(post, author, first));
      await notifications.add(manager, like(post, author, second));
      await notifications.add(manager, like(post, author, author));
      await notifications.withdraw(manager, { userId: author.id, senderId: first.id, type: NotificationType.likePost, targetId: post.id });
      await notifications.add(manager, like(post, author, third));
    });
    expect(await senders(author)).toEqual([second.id, third.id]);
    expect(await unread.of(app.service.dataSource.manager, author.id)).toMatchObject({ likes: 2 });

    await run(async (manager) => {
      await notifications.add(manager, like(post, author, first));
      await notifications.add(manager, like(post, author, second));
    });
    expect(await senders(author)).toEqual([first.id, second.id, third.id]);
    expect(await unread.of(app.service.dataSource.manager, author.id)).toMatchObject({ likes: 3 });
    expect(await app.counterDrift()).toEqual([]);
  });
});
