import { BadRequestException, NotFoundException } from '@nestjs/common';
import { messageForStatus } from '@shiliu/platform';

/** A LIKE pattern that matches `text` literally anywhere (its own %, _ and \ escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function badRequest(message: string): BadRequestException {
  return new BadRequestException(message);
}

export function notFound(): NotFoundException {
  return new NotFoundException(messageForStatus(404));
}
