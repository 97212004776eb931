import { UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessTokenGuard } from './access-token.guard';
import type { AuthRequirement } from './auth.decorators';
import { MemoryRevocationList } from './revocation-list';
import type { Principal, TokenVerifier } from './token-verifier';

function contextWith(requirement: AuthRequirement | undefined, authorization?: string) {
  const request: { headers: Record<string, string>; principal?: Principal } = { headers: authorization ? { authorization } : {} };
  const reflector = { getAllAndOverride: () => requirement } as unknown as Reflector;
  const context = { getHandler: () => undefined, getClass: () => undefined, switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
  return { request, reflector, context };
}

describe('AccessTokenGuard', () => {
  const principal: Principal = { audience: 'user', id: '1', userId: 'abc', sessionId: 'session-1' };
  const verifier = { verify: jest.fn(async (token: string) => (token === 'good' ? principal : null)) } as unknown as TokenVerifier;
  const revocations = new MemoryRevocationList();

  it('lets public routes through without a token', async () => {
    const { reflector, context } = contextWith(undefined);
    await expect(new AccessTokenGuard(reflector, verifier, revocations).canActivate(context)).resolves.toBe(true);
  });

  it('puts the verified principal on the request', async () => {
    const { reflector, context, request } = contextWith({ audience: 'user', optional: false }, 'Bearer good');
    await expect(new AccessTokenGuard(reflector, verifier, revocations).canActivate(context)).resolves.toBe(true);
    expect(request.principal).toBe(principal);
  });

  it.each([undefined, 'Bearer bad', 'Basic good'])('refuses %s on a route that needs login, with the spec message', async (header) => {
    const { reflector, context } = contextWith({ audience: 'user', optional: false }, header);
    await expect(new AccessTokenGuard(reflector, verifier, revocations).canActivate(context)).rejects.toThrow(new UnauthorizedException('未授权访问'));
  });

  it('lets an optional-login route through without a token but not with a bad one', async () => {
    const anonymous = contextWith({ audience: 'user', optional: true });
    await expect(new AccessTokenGuard(anonymous.reflector, verifier, revocations).canActivate(anonymous.context)).resolves.toBe(true);
    const bad = contextWith({ audience: 'user', optional: true }, 'Bearer bad');
    await expect(new AccessTokenGuard(bad.reflector, verifier, revocations).canActivate(bad.context)).rejects.toThrow(UnauthorizedException);
  });

  it('refuses a valid token once its session is revoked', async () => {
    const revoked = new MemoryRevocationList();
    await revoked.revoke(['session-1']);
    const { reflector, context } = contextWith({ audience: 'user', optional: true }, 'Bearer good');
    await expect(new AccessTokenGuard(reflector, verifier, revoked).canActivate(context)).rejects.toThrow(new UnauthorizedException('未授权访问'));
  });

  it('takes an administrator\'s token where the route accepts one, and only there', async () => {
    const admin: Principal = { audience: 'admin', id: '7', userId: 'admin', sessionId: 'session-7' };
    const both = { verify: jest.fn(async (token: string, audience: string) => (token === 'admin' && audience === 'admin' ? admin : null)) } as unknown as TokenVerifier;
    const accepting = contextWith({ audience: 'user', optional: false, admin: true }, 'Bearer admin');
    await expect(new AccessTokenGuard(accepting.reflector, both, revocations).canActivate(accepting.context)).resolves.toBe(true);
    expect(accepting.request.principal).toBe(admin);
    const studentsOnly = contextWith({ audience: 'user', optional: false }, 'Bearer admin');
    await expect(new AccessTokenGuard(studentsOnly.reflector, both, revocations).canActivate(studentsOnly.context)).rejects.toThrow(UnauthorizedException);
  });
});
