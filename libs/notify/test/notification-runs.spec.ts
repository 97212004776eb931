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

  it('ends a run of likes and unlikes of one note, the same students many times over, as one event after another would', async () => {
    const [inRun, oneByOne] = [await app.user(), await app.user()];
    const students = [await app.user(), await app.user(), await app.user(), await app.user()];
    const posts = new Map([inRun, oneByOne].map((author) => [author, postSnapshot(author)]));
    for (const post of posts.values()) await app.deliver(postPublished.type, { post });
    // One student's notification is there and read before the run: an unlike no longer hides it.
    for (const author of [inRun, oneByOne]) {
      await run((manager) => notifications.add(manager, like(posts.get(author)!, author, students[3])));
      await app.query(`UPDATE "notifications" SET "is_read" = true WHERE "user_id" = $1`, [author.id]);
    }
    await app.query(`UPDATE "unread_counts" SET "likes" = 0 WHERE "user_id" = ANY($1::bigint[])`, [[inRun.id, oneByOne.id]]);
    const steps: [number, boolean][] = [[0, true], [1, true], [0, false], [2, true], [3, false], [0, true], [1, false], [3, true], [2, false], [2, true], [0, false], [1, true]];
    const step = (manager: EntityManager, author: TestUser, [student, on]: [number, boolean]) =>
      on
        ? notifications.add(manager, like(posts.get(author)!, author, students[student]))
        : notifications.withdraw(manager, { userId: author.id, senderId: students[student].id, type: NotificationType.likePost, targetId: posts.get(author)!.id });

    await run(async (manager) => {
      for (const one of steps) await step(manager, inRun, one);
    });
    for (const one of steps) await app.service.dataSource.transaction((manager) => step(manager, oneByOne, one));

    const state = async (author: TestUser) => ({
      rows: await app.query(
        `SELECT array_position($2::bigint[], "sender_id") AS "student", "hidden_by", "is_read" FROM "notifications" WHERE "user_id" = $1 ORDER BY 1`,
        [author.id, students.map((student) => student.id)],
      ),
      unread: (await unread.of(app.service.dataSource.manager, author.id)).likes,
    });
    const expected = await state(oneByOne);
    expect(expected.rows).toEqual([
      { student: 1, hidden_by: 'undo', is_read: false },
      { student: 2, hidden_by: null, is_read: false },
      { student: 3, hidden_by: null, is_read: false },
      { student: 4, hidden_by: null, is_read: true },
    ]);
    expect(expected.unread).toBe(2);
    expect(await state(inRun)).toEqual(expected);
    expect(await app.counterDrift()).toEqual([]);
  });
});
