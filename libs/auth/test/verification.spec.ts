import { documentedAnswerProblems } from '@shiliu/platform/testing';
import { VerificationService } from '../src/verification/verification.service';
import { AuthTestApp, signUp } from './auth-test-app';

interface Shown {
  id: number;
  type: number;
  status: number;
  content: Record<string, string>;
}

const personal = { real_name: '林小雨', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' };
const official = { org_name: '某某大学摄影协会', credit_code: '91350100M000100Y43', contact_name: '陈默', contact_phone: '13812345678', reason: '社团官方账号' };

describe('verification (auth service, PostgreSQL)', () => {
  let auth: AuthTestApp;

  beforeAll(async () => {
    auth = await AuthTestApp.start();
  });

  afterAll(async () => {
    await auth?.close();
  });

  it('takes a personal application, encrypts the ID number at rest and shows it masked', async () => {
    const { tokens, user } = await signUp(auth);
    const answer = await auth.call<Shown>('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 2, content: personal } });
    expect(answer.body.message).toBe('认证申请提交成功，请耐心等待审核');
    expect(answer.body.data).toMatchObject({ type: 2, status: 0, content: { real_name: '林小雨', id_card: '110105********002X', occupation: '学生' } });
    const [row] = await auth.service.dataSource.query(`SELECT "content"::text AS content FROM "verification_applications" WHERE "account_id" = $1`, [user.id]);
    expect(row.content).not.toContain('11010519491231002X');
    expect(row.content).toContain('enc:v1:');
    const status = await auth.call<Shown[]>('GET', '/api/users/verification/status', { token: tokens.access_token });
    expect(status.body.data.map((shown) => shown.content.id_card)).toEqual(['110105********002X']);
    expect(status.text).not.toContain('19491231');
  });

  it('takes an official application with its content as a JSON string and masks the phone', async () => {
    const { tokens } = await signUp(auth);
    const answer = await auth.call<Shown>('POST', '/api/users/verification', { token: tokens.access_token, body: { type: '1', content: JSON.stringify(official) } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.content).toMatchObject({ org_name: '某某大学摄影协会', contact_phone: '138****5678' });
  });

  it('allows one application at a time, and a new one after revoking', async () => {
    const { tokens } = await signUp(auth);
    await auth.call('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 2, content: personal } });
    const second = await auth.call('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 1, content: official } });
    expect(second.body).toEqual({ code: 409, message: '您已提交过认证申请，请先撤回后再重新申请', data: null });
    expect((await auth.call('DELETE', '/api/users/verification/revoke', { token: tokens.access_token })).body).toEqual({ code: 200, message: '认证申请已撤回', data: null });
    expect((await auth.call('GET', '/api/users/verification/status', { token: tokens.access_token })).body.data).toEqual([]);
    expect((await auth.call('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 1, content: official } })).status).toBe(200);
  });

  it.each([
    [{ type: 3, content: personal }, '认证类型只能是官方认证(1)或个人认证(2)'],
    [{ type: 2, content: { ...personal, occupation: '' } }, '请填写职业'],
    [{ type: 2, content: { ...personal, id_card: '12345' } }, '身份证号格式不正确'],
    [{ type: 2, content: { ...personal, reason: '理'.repeat(201) } }, '申请理由最多200个字符'],
    [{ type: 1, content: { ...official, contact_phone: '12345' } }, '联系电话格式不正确'],
    [{ type: 1, content: personal }, '请填写机构名称'],
    [{ type: 2, content: 'not json' }, '请填写认证信息'],
  ])('refuses %j with 400 and stores nothing', async (body, message) => {
    const { tokens, user } = await signUp(auth);
    expect((await auth.call('POST', '/api/users/verification', { token: tokens.access_token, body })).body).toEqual({ code: 400, message, data: null });
    const [{ count }] = await auth.service.dataSource.query(`SELECT count(*)::int AS count FROM "verification_applications" WHERE "account_id" = $1`, [user.id]);
    expect(count).toBe(0);
  });

  it('answers 404 to a revoke when there is no application to withdraw', async () => {
    const { tokens } = await signUp(auth);
    expect((await auth.call('DELETE', '/api/users/verification/revoke', { token: tokens.access_token })).body).toEqual({ code: 404, message: '认证申请不存在', data: null });
  });

  it('needs a signed-in user', async () => {
    expect((await auth.call('GET', '/api/users/verification/status')).status).toBe(401);
    expect((await auth.call('POST', '/api/users/verification', { body: { type: 2, content: personal } })).status).toBe(401);
  });

  it('on approval makes the user verified and announces it; the status lists every application, newest first', async () => {
    const { tokens, user, userId } = await signUp(auth);
    const submitted = await auth.call<Shown>('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 2, content: personal } });
    const verification = auth.service.app.get(VerificationService);
    await verification.approve(String(submitted.body.data.id));
    await auth.service.dataSource.query(
      `INSERT INTO "verification_applications" ("account_id", "type", "status", "content") VALUES ($1, 1, 0, '{}'), ($1, 1, 2, '{}')`,
      [user.id],
    );
    const status = await auth.call<Shown[]>('GET', '/api/users/verification/status', { token: tokens.access_token });
    expect(status.body.data.map((shown) => [shown.status, shown.type])).toEqual([[2, 1], [0, 1], [1, 2]]);
    expect(documentedAnswerProblems('GET /api/users/verification/status', status.body)).toEqual([]);
    expect((await auth.call<{ verified: number }>('GET', `/api/users/${userId}`)).body.data.verified).toBe(2);
    const [event] = await auth.service.dataSource.query(`SELECT "envelope" FROM "outbox" WHERE "type" = 'user.verified' AND "key" = $1`, [String(user.id)]);
    expect(event.envelope.payload).toEqual({ id: user.id, user_id: userId, verified: 2 });
  });

  it('lists a rejected application with its reason beside a newer pending one', async () => {
    const { tokens, user } = await signUp(auth);
    const submitted = await auth.call<Shown>('POST', '/api/users/verification', { token: tokens.access_token, body: { type: 2, content: personal } });
    await auth.service.app.get(VerificationService).reject(String(submitted.body.data.id), '材料不清晰');
    await auth.service.dataSource.query(`INSERT INTO "verification_applications" ("account_id", "type", "status", "content") VALUES ($1, 1, 0, '{}')`, [user.id]);
    expect((await auth.call<Shown[]>('GET', '/api/users/verification/status', { token: tokens.access_token })).body.data).toEqual([
      expect.objectContaining({ status: 0, reject_reason: null }),
      expect.objectContaining({ status: 2, reject_reason: '材料不清晰' }),
    ]);
  });
});
