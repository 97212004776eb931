import { BadRequestException, NotFoundException } from '@nestjs/common';
import { messageForStatus } from '@shiliu/platform';

/** A LIKE pattern that matches `text` literally anywhere (its own %, _ and \ escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** PostgreSQL's code for a foreign key that points nowhere: the target was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}

export function badRequest(message: string): BadRequestException {
  return new BadRequestException(message);
}

export function notFound(): NotFoundException {
  return new NotFoundException(messageForStatus(404));
}
