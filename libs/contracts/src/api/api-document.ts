import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';

/** Where the merged API document is checked in; `nx run @shiliu/app-gateway:openapi` rebuilds it from the code. */
export const API_DOCUMENT_FILE = join(__dirname, '..', '..', 'openapi.json');

/**
 * The whole API as one OpenAPI 3 document: every service's operations with their parameters, bodies, answers
 * and error statuses. A test fails when it and the code part, so serving it is serving the code's contract.
 */
export function apiDocument(): OpenAPIObject {
  return JSON.parse(readFileSync(API_DOCUMENT_FILE, 'utf8')) as OpenAPIObject;
}
