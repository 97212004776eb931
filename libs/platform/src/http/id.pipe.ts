import { NotFoundException, type PipeTransform } from '@nestjs/common';
import { messageForStatus } from './messages';

/** An id as a path writes it: a whole number without a sign, zeros in front or an exponent, as a source for patterns. */
export const ID_PATTERN = '[1-9][0-9]{0,15}';
/** A whole string that is such a number. */
export const WHOLE_ID = new RegExp(`^${ID_PATTERN}$`);

/**
 * A numeric id from the path. Anything else names nothing that can exist, so it is a 404 like an unknown id;
 * ids are bigint in the database but stay below 2^53, so a JavaScript number holds them.
 */
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!WHOLE_ID.test(value)) throw new NotFoundException(messageForStatus(404));
    return Number(value);
  }
}
