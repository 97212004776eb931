import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importPKCS8, SignJWT } from 'jose';
import pino from 'pino';
import { generateTokenKeyPair, type TokenKeyPair } from '../auth/key-pair';
import { MemoryRevocationList } from '../auth/revocation-list';
import { audienceClaim, TOKEN_ISSUER, TokenVerifier } from '../auth/token-verifier';
import { metricsRegistry } from '../metrics/metrics';
import { AnswerTracker } from './answer-tracker';
import { DIRECT_BODY_LIMIT_BYTES, type DirectRoute, type DirectWork, directRoutesHandler, oneOf, readQuery, wholeNumberIn } from './direct-routes';
import { Reply } from './envelope.interceptor';
import { TooManyRequestsException } from './too-many-requests';
import { waitFor } from '../testing/infra';

describe('a direct route reads only a query it takes exactly as given', () => {
  const readers = { page: wholeNumberIn(1, 1000), sort: oneOf('asc', 'desc') };
  const read = (search: string) => readQuery(search, readers);

  it('reads the parameters it knows, each at most once', () => {
    expect(read('')).toEqual({});
    expect(read('page=12&sort=asc')).toEqual({ page: 12, sort: 'asc' });
    expect(read('sort=desc')).toEqual({ sort: 'desc' });
  });

  it('refuses another parameter, one given twice, or a value it does not take, so that Nest answers the call', () => {
    expect(read('page=1&other=1')).toBeNull();
    expect(read('page=1&page=2')).toBeNull();
    expect(read('sort=up')).toBeNull();
    expect(read('constructor=1')).toBeNull();
    for (const page of ['0', '01', '-1', '+1', '1e2', '1.0', ' 1', '1001', '', '99999999999999999']) expect(read(`page=${encodeURIComponent(page)}`)).toBeNull();
    expect(read('page=1000')).toEqual({ page: 1000 });
  });
});

describe("a direct route's answer", () => {
  let server: Server;
  let base: string;
  let keys: TokenKeyPair;
  const revocations = new MemoryRevocationList();
  const logged: { msg: string; err?: { message: string } }[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  /**
   * Nest, as far as these calls go: it signs every call the direct routes leave to it, and tells the body it was
   * given already parsed or, as its parser would, reads the rest of the stream.
   */
  const nest = Object.assign(
    (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
      res.setHeader('x-answered-by', 'nest');
      if (req.body !== undefined) {
        res.end(JSON.stringify({ parsed: req.body }));
        return;
      }
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => res.end(JSON.stringify({ raw })));
    },
    { get: () => () => false },
  );
  const route = (pattern: string, work: DirectWork): DirectRoute => ({ pattern, match: (path) => (path === pattern ? work : null) });
  /** `/late` answers only when the test lets it, after its call has been answered 504. */
  let letLateAnswer!: () => void;
  const lateWork = new Promise<{ late: true }>((resolve) => (letLateAnswer = () => resolve({ late: true })));
  let lateTaken!: () => void;
  const lateCallTaken = new Promise<void>((resolve) => (lateTaken = resolve));

  const token = async (session: string) =>
    new SignJWT({ uid: 'student_1', sid: session })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('42')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(audienceClaim.user)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importPKCS8(keys.privateKeyPem, 'EdDSA'));
  const durations = async () => (await metricsRegistry.getSingleMetric('shiliu_http_request_duration_seconds')!.get()).values;

  beforeAll(async () => {
    keys = await generateTokenKeyPair();
    const handler = directRoutesHandler({
      service: 'direct-spec',
      routes: [
        route('/who', async (caller) => ({ user: caller.principal?.id ?? null })),
        route('/fails', async () => {
          throw new Error('the database went away');
        }),
        route('/busy', async () => {
          throw new TooManyRequestsException(2500);
        }),
        route('/late', () => {
          lateTaken();
          return lateWork;
        }),
        {
          pattern: '/tap',
          method: 'POST',
          match: (path, search) =>
            path === '/tap' && search === ''
              ? (body) => {
                  const { n } = body as { n?: unknown };
                  return typeof n === 'number' ? async (caller) => new Reply('好', { n, user: caller.principal.id }) : null;
                }
              : null,
        },
        {
          pattern: '/broken',
          method: 'DELETE',
          match: (path) =>
            path === '/broken'
              ? () => {
                  throw new Error('a reader with a fault');
                }
              : null,
        },
      ],
      nest,
      answers: new AnswerTracker(),
      verifier: await TokenVerifier.fromPem(keys.publicKeyPem),
      revocations,
      logger,
    });
    server = createServer((req, res) => {
      handler(req, res);
      // As the gateway's timer does in the embedded mode: the call is answered 504 while its work goes on.
      if (req.url === '/late') {
        void lateCallTaken.then(() => {
          res.statusCode = 504;
          res.end(JSON.stringify({ code: 504, message: '服务响应超时，请稍后重试', data: null }));
        });
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("reads the caller's user from a good token and counts the call under its route's pattern", async () => {
    const answer = await fetch(`${base}/who`, { headers: { authorization: `Bearer ${await token('session-good')}` } });
    expect(await answer.json()).toEqual({ code: 200, message: 'success', data: { user: '42' } });
    expect(await durations()).toContainEqual(
      expect.objectContaining({ metricName: 'shiliu_http_request_duration_seconds_count', labels: { service: 'direct-spec', method: 'GET', route: '/who', status: '200' }, value: 1 }),
    );
  });

  it('answers an unexpected failure with the spec’s 500 and logs it, and a 429 with when to come back', async () => {
    const failed = await fetch(`${base}/fails`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ code: 500, message: '服务器内部错误', data: null });
    expect(logged).toContainEqual(expect.objectContaining({ msg: 'unhandled error', err: expect.objectContaining({ message: 'the database went away' }) }));
    const busy = await fetch(`${base}/busy`);
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('3');
    expect(((await busy.json()) as { data: unknown }).data).toEqual({ retryAfter: 3 });
  });

  it('drops an answer that comes after its call was answered, counting it, with nothing thrown', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const answer = await fetch(`${base}/late`);
      expect(answer.status).toBe(504);
      const dropped = async () => (await metricsRegistry.getSingleMetric('shiliu_http_late_answers_dropped_total')!.get()).values.find((v) => v.labels.service === 'direct-spec')?.value ?? 0;
      expect(await dropped()).toBe(0);
      letLateAnswer();
      await waitFor('the late answer to be dropped', async () => (await dropped()) === 1);
      // An unhandled rejection is reported on a later turn of the loop than the one that made it.
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
      expect(logged.filter((line) => line.msg === 'a direct answer failed')).toEqual([]);
      expect((await fetch(`${base}/who`)).status).toBe(200);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('leaves to Nest a bad token, a revoked session, a HEAD and a path no route takes', async () => {
    await revocations.revoke(['session-revoked']);
    const calls = [
      fetch(`${base}/who`, { headers: { authorization: 'Bearer not-a-token' } }),
      fetch(`${base}/who`, { headers: { authorization: `Bearer ${await token('session-revoked')}` } }),
      fetch(`${base}/who`, { method: 'HEAD' }),
      fetch(`${base}/who`, { method: 'POST' }),
      fetch(`${base}/elsewhere`),
    ];
    for (const answer of await Promise.all(calls)) expect(answer.headers.get('x-answered-by')).toBe('nest');
    expect((await fetch(`${base}/who`)).headers.get('x-answered-by')).toBeNull();
    expect(await durations()).not.toContainEqual(expect.objectContaining({ labels: expect.objectContaining({ service: 'direct-spec', status: '401' }) }));
  });

  describe('a direct write', () => {
    const tap = async (body: string, headers: Record<string, string> = {}, method = 'POST', path = '/tap') =>
      fetch(`${base}${path}`, { method, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${await token('session-tap')}`, ...headers } });

    it('answers a logged-in user’s JSON body it takes, with the reply’s message, counted under its method', async () => {
      const answer = await tap('{"n":7}');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-answered-by')).toBeNull();
      expect(answer.headers.get('etag')).toMatch(/^W\//);
      expect(await answer.json()).toEqual({ code: 200, message: '好', data: { n: 7, user: '42' } });
      expect((await tap('\uFEFF {"n":8}', { 'content-type': 'Application/JSON; charset=UTF-8' })).headers.get('x-answered-by')).toBeNull();
      expect(await durations()).toContainEqual(
        expect.objectContaining({ metricName: 'shiliu_http_request_duration_seconds_count', labels: { service: 'direct-spec', method: 'POST', route: '/tap', status: '200' }, value: 2 }),
      );
    });

    it('hands a body it does not take to Nest already parsed', async () => {
      for (const body of ['{"n":"7"}', '[]', '']) {
        const answer = await tap(body);
        expect(answer.headers.get('x-answered-by')).toBe('nest');
        expect(await answer.json()).toEqual({ parsed: body === '' ? {} : JSON.parse(body) });
      }
    });

    it('answers a fault of the route’s own with the spec’s 500 and logs it', async () => {
      const answer = await tap('{}', {}, 'DELETE', '/broken');
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({ code: 500, message: '服务器内部错误', data: null });
      expect(logged).toContainEqual(expect.objectContaining({ err: expect.objectContaining({ message: 'a reader with a fault' }) }));
    });

    it('answers a body that is not JSON as Nest’s parser does', async () => {
      for (const body of ['{"n":', '"text"', '7', 'null']) {
        const answer = await tap(body);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toEqual({ code: 400, message: '请求体不是有效的JSON', data: null });
      }
    });

    it('leaves to Nest, body unread, a call without a user, another type, a large or compressed body, another method or a query', async () => {
      const large = JSON.stringify({ n: 1, pad: 'x'.repeat(DIRECT_BODY_LIMIT_BYTES) });
      const calls = [
        fetch(`${base}/tap`, { method: 'POST', body: '{"n":1}', headers: { 'content-type': 'application/json' } }),
        tap('{"n":1}', { authorization: 'Bearer not-a-token' }),
        tap('{"n":1}', { 'content-type': 'text/plain' }),
        tap('{"n":1}', { 'content-type': 'application/json; charset=latin1' }),
        tap(large),
        tap('{"n":1}', { 'content-encoding': 'gzip' }),
        tap('{"n":1}', {}, 'DELETE'),
        tap('{"n":1}', {}, 'POST', '/tap?x=1'),
      ];
      const answers = await Promise.all(calls);
      for (const answer of answers) expect(answer.headers.get('x-answered-by')).toBe('nest');
      expect(await answers[0].json()).toEqual({ raw: '{"n":1}' });
      expect(await answers[4].json()).toEqual({ raw: large });
    });
  });
});
