import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { messageForStatus } from './messages';

/** The error statuses of DESIGN.md §4 that an operation documents. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

export const ERROR_ENVELOPE_SCHEMA = 'ErrorEnvelope';

/**
 * The error statuses a handler answers that its shape does not reveal (a 403 for someone else's note, a 409 for a
 * taken name). The rest (400 for its inputs, 401 for its auth, 404 for its path ids, 413 for its body, 429 for all)
 * the document derives by itself.
 */
export const ApiErrors = (...statuses: ErrorStatus[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: messageForStatus(status), schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE_SCHEMA}` } })),
  );
