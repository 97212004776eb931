import { BadRequestException, NotFoundException, type PipeTransform } from '@nestjs/common';
import { messageForStatus } from '@shiliu/platform';

/** A LIKE pattern that matches `text` literally anywhere (its own %, _ and \ escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** PostgreSQL's code for a foreign key that points nowhere: the target was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

/**
 * A numeric id from the path. Anything else names nothing that can exist, so it is a 404 like an unknown id;
 * ids are bigint in the database but stay below 2^53, so a JavaScript number holds them.
 */
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9][0-9]{0,15}$/.test(value)) throw new NotFoundException(messageForStatus(404));
    return Number(value);
  }
}

export function badRequest(message: string): BadRequestException {
  return new BadRequestException(message);
}

export function notFound(): NotFoundException {
  return new NotFoundException(messageForStatus(404));
}
