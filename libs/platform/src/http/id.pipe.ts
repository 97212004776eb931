import { NotFoundException, type PipeTransform } from '@nestjs/common';
import { messageForStatus } from './messages';

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
