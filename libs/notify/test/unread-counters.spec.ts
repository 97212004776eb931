import { UnreadCountRepository } from '../src/notifications/unread-count.repository';
import { NotificationType } from '../src/notifications/notification-type';
import { NotifyTestApp } from './notify-test-app';

/** The unread counters a transaction moves are written once per user as it commits, and only what commits counts. */
describe('unread counters', () => {
  let app: NotifyTestApp;
  let unread: UnreadCountRepository;

  beforeAll(async () => {
    app = await NotifyTestApp.start();
    unread = app.service.app.get(UnreadCountRepository);
  });

  afterAll(async () => {
    await app?.close();
  });

  const counts = async (userId: number) => unread.of(app.service.dataSource.manager, userId);
  const like = (userId: number, delta: number) => ({ user_id: userId, type: NotificationType.likePost, delta });

  it('sums a transaction’s moves and writes them as it commits, leaving out those of a savepoint rolled back and of a transaction rolled back', async () => {
    const [first, second] = [await app.user(), await app.user()];
    await app.service.dataSource.transaction(async (manager) => {
      await unread.move(manager, [like(second.id, 1)]);
      await unread.move(manager, [like(first.id, 1), like(second.id, 1)]);
      await manager
        .transaction(async (inner) => {
          await unread.move(inner, [like(first.id, 5)]);
          throw new Error('take back the savepoint');
        })
        .catch(() => undefined);
      await manager.transaction((inner) => unread.move(inner, [like(first.id, 1)]));
    });
    expect(await counts(first.id)).toMatchObject({ likes: 2 });
    expect(await counts(second.id)).toMatchObject({ likes: 2 });

    await expect(
      app.service.dataSource.transaction(async (manager) => {
        await unread.move(manager, [like(first.id, 1)]);
        throw new Error('take back everything');
      }),
    ).rejects.toThrow('take back everything');
    expect(await counts(first.id)).toMatchObject({ likes: 2 });
  });
});
