import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest as Request } from 'fastify';
import type { Audience, Principal } from './token-verifier';

export const AUTH_METADATA = 'shiliu:auth';

export interface AuthRequirement {
  audience: Audience;
  optional: boolean;
  /** A valid token of the other audience is a 403 (logged in, not allowed) rather than a 401. */
  otherAudienceForbidden?: boolean;
  /** An administrator's token is accepted too (uploads: the console's forms add images as a student's do). */
  admin?: boolean;
}

/** The call needs a logged-in user (401 otherwise). */
export const UserAuth = () => SetMetadata(AUTH_METADATA, { audience: 'user', optional: false } satisfies AuthRequirement);
/** The call reads the user when a valid token comes with it, and still answers without one. */
export const OptionalUserAuth = () => SetMetadata(AUTH_METADATA, { audience: 'user', optional: true } satisfies AuthRequirement);
/** The call needs a logged-in user or administrator (the principal's audience tells which). */
export const UserOrAdminAuth = () => SetMetadata(AUTH_METADATA, { audience: 'user', optional: false, admin: true } satisfies AuthRequirement);
/** The call needs a logged-in administrator. */
export const AdminAuth = () => SetMetadata(AUTH_METADATA, { audience: 'admin', optional: false } satisfies AuthRequirement);
/** The call needs a logged-in administrator, and tells a logged-in user that it is not for them (403). */
export const AdminOnly = () => SetMetadata(AUTH_METADATA, { audience: 'admin', optional: false, otherAudienceForbidden: true } satisfies AuthRequirement);

export type AuthenticatedRequest = Request & { principal?: Principal };

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, context: ExecutionContext): Principal | undefined => context.switchToHttp().getRequest<AuthenticatedRequest>().principal,
);
