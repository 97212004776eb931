import { importPKCS8, SignJWT, type KeyLike } from 'jose';
import { generateTokenKeyPair, type TokenKeyPair } from './key-pair';
import { audienceClaim, type Audience, TOKEN_ISSUER, TokenVerifier } from './token-verifier';

async function sign(privateKey: KeyLike, audience: string, claims: Record<string, unknown> = {}, expiresIn = '1h') {
  return new SignJWT({ uid: 'student_1', sid: 'session-1', ...claims })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setSubject('42')
    .setIssuer(TOKEN_ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(privateKey);
}

/** A signed token lacking one of the registered claims (or issued at a given time). */
async function unsigned(privateKey: KeyLike, omit: { exp?: false; iat?: false | number; iss?: false; aud?: false }) {
  const token = new SignJWT({ uid: 'student_1', sid: 'session-1' }).setProtectedHeader({ alg: 'EdDSA' }).setSubject('42');
  if (omit.iss !== false) token.setIssuer(TOKEN_ISSUER);
  if (omit.aud !== false) token.setAudience(audienceClaim.user);
  if (omit.iat !== false) token.setIssuedAt(omit.iat);
  if (omit.exp !== false) token.setExpirationTime('1h');
  return token.sign(privateKey);
}

describe('TokenVerifier', () => {
  let keys: TokenKeyPair;
  let other: TokenKeyPair;
  let verifier: TokenVerifier;

  beforeAll(async () => {
    keys = await generateTokenKeyPair();
    other = await generateTokenKeyPair();
    verifier = await TokenVerifier.fromPem(keys.publicKeyPem);
  });

  const privateKey = async (pair: TokenKeyPair) => importPKCS8(pair.privateKeyPem, 'EdDSA');

  it('accepts a token signed by the auth key for its audience', async () => {
    const token = await sign(await privateKey(keys), audienceClaim.user);
    expect(await verifier.verify(token, 'user')).toEqual({ audience: 'user', id: '42', userId: 'student_1', sessionId: 'session-1' });
  });

  it('remembers a verified token for its audience only, and refuses it once it has expired', async () => {
    let clock = Date.now();
    const clocked = await TokenVerifier.fromPem(keys.publicKeyPem, () => clock);
    const token = await sign(await privateKey(keys), audienceClaim.user, {}, '10m');
    const principal = { audience: 'user', id: '42', userId: 'student_1', sessionId: 'session-1' };
    expect(await clocked.verify(token, 'user')).toEqual(principal);
    expect(await clocked.verify(token, 'admin')).toBeNull();
    clock += 9 * 60_000;
    expect(await clocked.verify(token, 'user')).toEqual(principal);
    clock += 2 * 60_000;
    expect(await clocked.verify(token, 'user')).toBeNull();
  });

  it('refuses a forged token as often as it is sent', async () => {
    const forged = await sign(await privateKey(other), audienceClaim.user);
    expect(await verifier.verify(forged, 'user')).toBeNull();
    expect(await verifier.verify(forged, 'user')).toBeNull();
  });

  it.each<[string, () => Promise<string>, Audience]>([
    ['signed by another key', async () => sign(await privateKey(other), audienceClaim.user), 'user'],
    ['an admin token on a user endpoint', async () => sign(await privateKey(keys), audienceClaim.admin), 'user'],
    ['a user token on an admin endpoint', async () => sign(await privateKey(keys), audienceClaim.user), 'admin'],
    ['expired', async () => sign(await privateKey(keys), audienceClaim.user, {}, '-1s'), 'user'],
    ['without the product ID', async () => sign(await privateKey(keys), audienceClaim.user, { uid: undefined }), 'user'],
    ['without the session id', async () => sign(await privateKey(keys), audienceClaim.user, { sid: undefined }), 'user'],
    ['without an expiry', async () => unsigned(await privateKey(keys), { exp: false }), 'user'],
    ['without an issue time', async () => unsigned(await privateKey(keys), { iat: false }), 'user'],
    ['without an issuer', async () => unsigned(await privateKey(keys), { iss: false }), 'user'],
    ['without an audience', async () => unsigned(await privateKey(keys), { aud: false }), 'user'],
    ['that lives longer than an access token may', async () => unsigned(await privateKey(keys), { iat: Math.floor(Date.now() / 1000) - 2 * 3600 }), 'user'],
    ['not a token at all', async () => 'not.a.token', 'user'],
  ])('refuses a token %s', async (_case, token, audience) => {
    expect(await verifier.verify(await token(), audience)).toBeNull();
  });

  it('refuses an unsigned token (alg none)', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '42', uid: 'x', iss: TOKEN_ISSUER, aud: audienceClaim.user })).toString('base64url');
    expect(await verifier.verify(`${header}.${payload}.`, 'user')).toBeNull();
  });
});
