import { randomBytes, randomUUID } from 'node:crypto';
import { Controller, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { authService, UsersService } from '@shiliu/auth';
import { contentService } from '@shiliu/content';
import {
  type EventEnvelope,
  postAnnounced,
  type PostAnnouncedPayload,
  postPublished,
  postUpdated,
  userAnnounced,
  type UserAnnouncedPayload,
  userRegistered,
  userUpdated,
} from '@shiliu/contracts';
import {
  createKafka,
  createLogger,
  createServiceApp,
  type EventContext,
  requestBackfill,
  schemaOf,
  type ServiceApp,
  type ServiceDefinition,
  type ServiceName,
  type ServiceRuntime,
} from '@shiliu/platform';
import { requireEnv, testServiceRuntime, waitFor } from '@shiliu/platform/testing';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const ENTITIES = 1000;

/**
 * A read model that did not exist when 1,000 users and 1,000 notes were created: it starts empty, asks for a
 * backfill, and auth and content re-announce everything through their outboxes, in both run modes. Each row keeps
 * the time of the event it came from and gives way only to a newer one, so a backfill never undoes a later change.
 */
@Controller()
class ReaderHandlers {
  @EventPattern([userRegistered.type, userUpdated.type, userAnnounced.type])
  async user(@Payload() envelope: EventEnvelope<UserAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await context.manager.query(
      `INSERT INTO "read_users" ("id", "nickname", "as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("id") DO UPDATE SET "nickname" = EXCLUDED."nickname", "as_of" = EXCLUDED."as_of" WHERE "read_users"."as_of" <= EXCLUDED."as_of"`,
      [envelope.payload.user.id, envelope.payload.user.nickname, envelope.occurredAt],
    );
  }

  @EventPattern([postPublished.type, postUpdated.type, postAnnounced.type])
  async post(@Payload() envelope: EventEnvelope<PostAnnouncedPayload>, @Ctx() context: EventContext): Promise<void> {
    await context.manager.query(
      `INSERT INTO "read_posts" ("id", "title", "as_of") VALUES ($1, $2, $3)
       ON CONFLICT ("id") DO UPDATE SET "title" = EXCLUDED."title", "as_of" = EXCLUDED."as_of" WHERE "read_posts"."as_of" <= EXCLUDED."as_of"`,
      [envelope.payload.post.id, envelope.payload.post.title, envelope.occurredAt],
    );
  }
}

@Module({ controllers: [ReaderHandlers] })
class ReaderModule {}

class ReaderTables1763800000001 implements MigrationInterface {
  name = 'ReaderTables1763800000001';
  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`CREATE TABLE "${s}"."read_users" ("id" bigint PRIMARY KEY, "nickname" text NOT NULL, "as_of" timestamptz NOT NULL)`);
    await queryRunner.query(`CREATE TABLE "${s}"."read_posts" ("id" bigint PRIMARY KEY, "title" text NOT NULL, "as_of" timestamptz NOT NULL)`);
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."read_posts"`);
    await queryRunner.query(`DROP TABLE "${schemaOf(queryRunner)}"."read_users"`);
  }
}

const modes: [string, (suffix: string) => Partial<ServiceRuntime>][] = [
  ['embedded (in-process transport)', () => ({})],
  [
    'distributed (Kafka)',
    (suffix) => ({
      events: {
        kind: 'kafka',
        kafka: createKafka(requireEnv('KAFKA_BROKERS').split(','), `backfill-${suffix}`, createLogger('test', 'silent')),
        sessionTimeoutMs: 6000,
        topicPrefix: `t${suffix}.`,
      },
    }),
  ],
];

describe.each(modes)('backfill of a new read model, %s', (_mode, transport) => {
  const suffix = randomUUID().slice(0, 8);
  const names = { auth: `auth_b_${suffix}`, content: `content_b_${suffix}`, reader: `reader_b_${suffix}` };
  const reader: ServiceDefinition = {
    name: names.reader as ServiceName,
    module: ReaderModule,
    entities: [],
    migrations: [ReaderTables1763800000001],
    readModels: [
      { table: 'read_users', follows: ['user'] },
      { table: 'read_posts', follows: ['post'] },
    ],
  };
  const started: ServiceApp[] = [];
  let runtime: ServiceRuntime;

  const start = async (definition: ServiceDefinition) => {
    const service = await createServiceApp(definition, runtime);
    started.push(service);
    await service.relay.start();
    return service;
  };
  const count = async (service: ServiceApp, sql: string) => ((await service.dataSource.query(sql)) as { n: number }[])[0].n;

  beforeAll(async () => {
    process.env.ADMIN_PASSWORD ??= 'admin-secret-1';
    runtime = await testServiceRuntime(transport(suffix));
    runtime.secrets = { ...runtime.secrets, dataEncryptionKey: randomBytes(32).toString('base64') };
  });

  afterAll(async () => {
    for (const service of started.reverse()) {
      await service.dataSource.query(`DROP SCHEMA "${service.definition.name}" CASCADE`).catch(() => undefined);
      await service.close();
    }
  });

  it('fills a read model created after 1,000 users and notes, and a backfill racing new events leaves the newest state', async () => {
    const auth = await start({ ...authService, name: names.auth as ServiceName, seed: undefined });
    // The users and notes exist before any event about them is relayed: written straight into their owners' tables.
    await auth.dataSource.query(
      `INSERT INTO "users" ("user_id", "nickname", "password_hash", "avatar", "bio", "location")
       SELECT 'u' || i, '用户' || i, 'not-a-hash', '', '', '' FROM generate_series(1, ${ENTITIES}) AS i`,
    );
    // Content's author snapshot is a read model too: it starts empty and learns the users by the same backfill.
    const content = await start({ ...contentService, name: names.content as ServiceName, seed: undefined });
    await waitFor('content to know every author', async () => (await count(content, `SELECT count(*)::int AS n FROM "authors"`)) === ENTITIES, 180_000, 250);
    await content.dataSource.query(`INSERT INTO "posts" ("author_id", "title") SELECT "id", '笔记' || "id" FROM "authors"`);

    const model = await start(reader);
    // Whatever auth writes from now on reaches the new read model (earlier events may have gone out before it listened).
    const [{ since }] = await auth.dataSource.query(`SELECT COALESCE(max("seq"), 0) AS "since" FROM "outbox"`);
    await waitFor(
      'the new read model to hold every user and note',
      async () =>
        (await count(model, `SELECT count(*)::int AS n FROM "read_users"`)) === ENTITIES && (await count(model, `SELECT count(*)::int AS n FROM "read_posts"`)) === ENTITIES,
      300_000,
      250,
    );

    // A second backfill while users are renamed: whichever order they arrive in, each row ends with the new name.
    const users = auth.app.get(UsersService);
    const renamed = Array.from({ length: 50 }, (_, i) => `u${i * 20 + 1}`);
    await Promise.all([
      requestBackfill(model.dataSource, names.reader, ['user']),
      (async () => {
        for (const userId of renamed) await users.updateProfile((await users.findByUserId(userId))!, { nickname: `新${userId}` });
      })(),
    ]);
    await waitFor('the backfill request to be announced', async () => (await count(auth, `SELECT count(*)::int AS n FROM "inbox" WHERE "event_id" IN (SELECT "id" FROM "${names.reader}"."outbox")`)) === 2);
    await waitFor(
      'the read model to have handled everything auth announced since it started',
      async () =>
        (await count(
          auth,
          `SELECT count(*)::int AS n FROM "outbox" o WHERE o."seq" > ${Number(since)} AND NOT EXISTS (SELECT 1 FROM "${names.reader}"."inbox" i WHERE i."event_id" = o."id")`,
        )) === 0,
      300_000,
      250,
    );

    const owned: { id: string; nickname: string }[] = await auth.dataSource.query(`SELECT "id", "nickname" FROM "users" ORDER BY "id"`);
    const read: { id: string; nickname: string }[] = await model.dataSource.query(`SELECT "id", "nickname" FROM "read_users" ORDER BY "id"`);
    expect(read).toEqual(owned);
    expect(read.filter(({ nickname }) => nickname.startsWith('新'))).toHaveLength(renamed.length);
  }, 600_000);
});
