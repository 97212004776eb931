import { randomUUID } from 'node:crypto';
import { type EventEnvelope, userRegistered, type UserProfileSnapshot } from '@shiliu/contracts';
import { Client } from 'pg';
import type { ServiceApp, ServiceRuntime } from '../service/create-service-app';
import { createServiceApp } from '../service/create-service-app';
import type { ServiceDefinition, ServiceName } from '../service/service-definition';
import { requireEnv } from './infra';
import { signAdminToken, signUserToken, testServiceRuntime } from './test-runtime';

export interface TestUser {
  id: number;
  userId: string;
  nickname: string;
  token: string;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; message: string; data: T };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export type TestRuntime = Awaited<ReturnType<typeof testServiceRuntime>>;

export interface StartedService {
  service: ServiceApp;
  base: string;
  runtime: TestRuntime;
  schema: string;
}

/**
 * One service module on the real PostgreSQL of the local infrastructure, in a schema of its own per test file (so
 * runs never meet each other nor a CI run on the same database), listening on a free port, fed other services'
 * events through the in-process bus as those services would send them. Every service's tests start it this way;
 * a service's own harness extends it with what only that service needs.
 */
export class ServiceTestApp {
  private userSeq = 0;

  constructor(parts: StartedService) {
    this.service = parts.service;
    this.base = parts.base;
    this.runtime = parts.runtime;
    this.schema = parts.schema;
  }

  readonly service: ServiceApp;
  /** The service's own origin, e.g. http://127.0.0.1:41234. */
  readonly base: string;
  readonly runtime: TestRuntime;
  readonly schema: string;

  /** A service with nothing of its own to add to the harness. */
  static async launch(definition: ServiceDefinition, overrides: Partial<ServiceRuntime> = {}): Promise<ServiceTestApp> {
    return new ServiceTestApp(await ServiceTestApp.boot(definition, overrides));
  }

  /**
   * Starts the service; a service's own harness wraps this in its own `start`. Runtime overrides pick Redis, a
   * revocation list or storage as distributed mode would; the demo seed never runs.
   */
  static async boot(definition: ServiceDefinition, overrides: Partial<ServiceRuntime> = {}): Promise<StartedService> {
    const schema = `${definition.name}_t_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    const runtime = await testServiceRuntime(overrides);
    const service = await createServiceApp({ ...definition, name: schema as ServiceName, seed: undefined }, { trustProxy: 'loopback', ...runtime });
    await service.app.listen(0, '127.0.0.1');
    return { service, base: await service.app.getUrl(), runtime, schema };
  }

  get bus() {
    return this.runtime.bus;
  }

  /** Closes the service first (it may write on the way out), then drops its schema. */
  async close(): Promise<void> {
    await this.service.close();
    const client = new Client({ connectionString: requireEnv('DATABASE_URL') });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${this.schema}" CASCADE`);
    await client.end();
  }

  /** An envelope as a producer would write it; `occurredAt` defaults to now. */
  envelope<T>(type: string, payload: T, occurredAt = new Date()): EventEnvelope<T> {
    const id = randomUUID();
    return { id, type, version: 1, occurredAt: occurredAt.toISOString(), actor: null, correlationId: id, causationId: id, payload };
  }

  /** Delivers an event as the bus would (handled once, through the inbox). */
  async deliver<T>(type: string, payload: T, occurredAt?: Date): Promise<EventEnvelope<T>> {
    const envelope = this.envelope(type, payload, occurredAt);
    await this.bus.deliver(envelope);
    return envelope;
  }

  /** A user as auth would register one: the user.registered event, then a token for them. */
  async user(overrides: Partial<UserProfileSnapshot> = {}): Promise<TestUser> {
    const n = ++this.userSeq;
    const profile: UserProfileSnapshot = {
      id: 1000 + n,
      user_id: `user_${n}`,
      nickname: `用户${n}`,
      avatar: `/api/files/avatars/${n}.png`,
      bio: '用户没有任何简介',
      location: '上海',
      verified: 0,
      ...overrides,
    };
    await this.deliver(userRegistered.type, { user: profile });
    return { id: profile.id, userId: profile.user_id, nickname: profile.nickname, token: await this.token(profile.id, profile.user_id) };
  }

  /** An access token as auth would issue one. */
  token(id: number, userId: string): Promise<string> {
    return signUserToken(this.runtime.keys, id, userId);
  }

  /** An administrator's access token as auth would issue one. */
  adminToken(id = 1, username = 'admin'): Promise<string> {
    return signAdminToken(this.runtime.keys, id, username);
  }

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer<T>['body'] };
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.service.dataSource.query(sql, params);
  }

  /** The events the service wrote to its outbox, oldest first. */
  async events(type?: string): Promise<(EventEnvelope & { topic: string; key: string })[]> {
    const rows = await this.query<{ envelope: EventEnvelope; topic: string; key: string }>(
      `SELECT "envelope", "topic", "key" FROM "outbox" ${type ? `WHERE "type" = $1` : ''} ORDER BY "seq"`,
      type ? [type] : [],
    );
    return rows.map((row) => ({ ...row.envelope, topic: row.topic, key: row.key }));
  }
}
