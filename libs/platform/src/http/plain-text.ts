import { ValidateBy, type ValidationOptions } from 'class-validator';

/** C0 and C1 control characters other than tab and line feed: they never belong in text a person wrote. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** At least one character that shows: not a space, not a format character, not one of the blank "fillers". */
export const VISIBLE_TEXT = /[^\s\p{Cf}\p{Zs}\p{Cc}\u115f\u1160\u2800\u3164\uffa0]/u;

/**
 * The field must show something (VISIBLE_TEXT). A validator of its own rather than `@Matches`: a `pattern` in the
 * API document would carry Unicode property classes that OpenAPI's regular expressions and its tools lack.
 */
export function IsVisibleText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isVisibleText', validator: { validate: (value: unknown) => typeof value === 'string' && VISIBLE_TEXT.test(value) } }, options);
}

/** A plain-text field as stored: control characters removed, surrounding space trimmed. */
export function plainText(value: string): string {
  return value.replace(CONTROL, '').trim();
}

/** For `@Transform` on a DTO's plain-text field; anything that is not a string is left to the validators. */
export const toPlainText = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? plainText(value) : value);
