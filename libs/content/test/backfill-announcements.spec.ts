import { backfillRequested, postAnnounced, type PostAnnouncedPayload } from '@shiliu/contracts';
import { ANNOUNCE_BATCH_SIZE, metricsRegistry } from '@shiliu/platform';
import { waitFor } from '@shiliu/platform/testing';
import { ContentTestApp, type TestUser } from './content-test-app';

const NOTES = 20_000;

/**
 * A read model that starts empty asks content to re-announce every note. The notes are announced a batch per
 * transaction, so a student who likes a note meanwhile is answered at once, not after the whole table, and the
 * like is in that note's announcement because it committed before the note's batch was read.
 */
describe('re-announcing 20,000 notes while students use them', () => {
  let app: ContentTestApp;
  let reader: TestUser;
  let lastId: number;

  const announcedSoFar = async () => Number((await app.query<{ n: string }>(`SELECT count(*) AS n FROM "outbox" WHERE "type" = $1`, [postAnnounced.type]))[0].n);
  const announcedMetric = async () =>
    ((await metricsRegistry.getSingleMetric('shiliu_backfill_announced_total')?.get())?.values ?? []).find((value) => value.labels.service === app.schema && value.labels.entity === 'post')?.value ?? 0;

  beforeAll(async () => {
    app = await ContentTestApp.start();
    const author = await app.user({ nickname: '作者' });
    reader = await app.user({ nickname: '读者' });
    await app.query(
      `INSERT INTO "posts" ("author_id", "title", "content", "content_text", "category_id", "images", "cover_url")
       SELECT $1, '第' || g || '篇', '<p>正文' || g || '</p>', '正文' || g, 1 + g % 8, '[]', NULL FROM generate_series(1, ${NOTES}) g`,
      [author.id],
    );
    lastId = Number((await app.query<{ id: string }>(`SELECT max("id") AS id FROM "posts"`))[0].id);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('answers a like at once while the notes are announced, and announces the like with its note', async () => {
    const before = await announcedMetric();
    const backfill = app.deliver(backfillRequested.type, { consumer: 'search', entities: ['post'] });
    await waitFor('the first batch to be announced', async () => (await announcedSoFar()) >= ANNOUNCE_BATCH_SIZE, 120_000, 20);

    const like = await app.call('POST', '/api/likes', { token: reader.token, body: { target_type: 1, target_id: lastId } });
    expect(like.status).toBe(200);
    // A transaction over the whole table held this like until every note had been announced.
    expect(await announcedSoFar()).toBeLessThan(NOTES);

    await backfill;
    const announcements = (await app.events(postAnnounced.type)).map((event) => event.payload as PostAnnouncedPayload);
    expect(announcements).toHaveLength(NOTES);
    expect(new Set(announcements.map((announcement) => announcement.post.id)).size).toBe(NOTES);
    const last = announcements.find((announcement) => announcement.post.id === lastId)!;
    expect([last.like_count, last.liked_by]).toEqual([1, [reader.id]]);
    expect((await announcedMetric()) - before).toBe(NOTES);
  }, 300_000);
});
