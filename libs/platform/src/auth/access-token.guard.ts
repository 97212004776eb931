import { type CanActivate, type ExecutionContext, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { currentContext } from '../context/request-context';
import { messageForStatus } from '../http/messages';
import { AUTH_METADATA, type AuthenticatedRequest, type AuthRequirement } from './auth.decorators';
import { REVOCATION_LIST } from '../service/tokens';
import type { RevocationList } from './revocation-list';
import { type Principal, TokenVerifier } from './token-verifier';

/**
 * Applies the route's @UserAuth / @OptionalUserAuth / @UserOrAdminAuth / @AdminAuth; routes with none of them are public. A token
 * whose session was revoked (logout, password change, deleted account or administrator) is refused like a bad one.
 */
@Injectable()
export class AccessTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: TokenVerifier,
    @Inject(REVOCATION_LIST) private readonly revocations: RevocationList,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    const principal = token ? await principalFor(this.verifier, this.revocations, token, requirement) : null;
    if (principal) {
      request.principal = principal;
      const requestContext = currentContext();
      if (requestContext) requestContext.actor = principal.id;
      return true;
    }
    if (requirement.optional && !token) return true;
    if (token && requirement.otherAudienceForbidden) {
      const other = await principalFor(this.verifier, this.revocations, token, { audience: requirement.audience === 'admin' ? 'user' : 'admin', optional: false });
      if (other) throw new ForbiddenException(messageForStatus(403));
    }
    throw new UnauthorizedException(messageForStatus(401));
  }
}

/** Who a token names under a route's requirement, or null when it names no one the route takes (bad, expired, revoked). */
export async function principalFor(verifier: TokenVerifier, revocations: RevocationList, token: string, requirement: AuthRequirement): Promise<Principal | null> {
  const principal = (await verifier.verify(token, requirement.audience)) ?? (requirement.admin ? await verifier.verify(token, 'admin') : null);
  return principal && !revocations.isRevoked(principal.sessionId) ? principal : null;
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}
