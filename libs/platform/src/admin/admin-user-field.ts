import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { toPlainText } from '../http/plain-text';

/**
 * A back-office form's field naming a user, by product ID or numeric id (admin-and-startup.md §5: required): `missing`
 * when it is absent or blank, and `unknown` when it is longer than any name a user can have, which is what the
 * service answers (404) for a name it does not know. One rule for every service's forms.
 */
export function AdminUserField(missing: string, unknown = '用户不存在'): PropertyDecorator {
  // Applied in the order stacked decorators would be (the lowest first): which message a field that breaks several
  // rules answers with follows that order.
  return applyDecorators(
    MaxLength(32, { message: unknown }),
    IsNotEmpty({ message: missing }),
    IsString({ message: missing }),
    Transform(toPlainText),
  );
}
