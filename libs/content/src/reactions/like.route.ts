import type { INestApplicationContext } from '@nestjs/common';
import { type DirectBodyReader, type DirectRoute, type DirectUserWork, type Principal, Reply } from '@shiliu/platform';
import { LIKED, UNLIKED } from './reaction.controller';
import { TARGET_COMMENT, TARGET_NOTE } from './reaction.dto';
import { type LikeState, ReactionService } from './reaction.service';

/**
 * POST and DELETE /api/likes, a student's tap, answered before express and Nest (DirectWrite): the same calls as
 * ReactionController.like and .unlike. Its whole work is one statement, which cost less than the body parser,
 * validation and Nest's pipeline around it. It takes a body of exactly `target_type` and `target_id` written as
 * JSON numbers that LikeDto accepts; any other body (strings, more fields, a bad value) Nest validates and answers.
 */
export function likeRoutes(app: INestApplicationContext): DirectRoute[] {
  const reactions = app.get(ReactionService);
  const route = (method: 'POST' | 'DELETE', message: string, tap: (principal: Principal, targetType: 1 | 2, targetId: number) => Promise<LikeState>): DirectRoute => {
    const reader = likeBody((targetType, targetId) => async (caller) => new Reply(message, await tap(caller.principal, targetType, targetId)));
    return { pattern: '/api/likes', method, match: (path, search) => (path === '/api/likes' && search === '' ? reader : null) };
  };
  return [
    route('POST', LIKED, (principal, targetType, targetId) => reactions.like(principal, targetType, targetId)),
    route('DELETE', UNLIKED, (principal, targetType, targetId) => reactions.unlike(principal, targetType, targetId)),
  ];
}

/** A body of a like: exactly its two fields, as JSON numbers LikeDto takes without converting them. */
function likeBody(work: (targetType: 1 | 2, targetId: number) => DirectUserWork): DirectBodyReader {
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const keys = Object.keys(body);
    if (keys.length !== 2) return null;
    const { target_type: targetType, target_id: targetId } = body as Record<string, unknown>;
    if (targetType !== TARGET_NOTE && targetType !== TARGET_COMMENT) return null;
    if (typeof targetId !== 'number' || !Number.isSafeInteger(targetId) || targetId < 1) return null;
    return work(targetType, targetId);
  };
}
