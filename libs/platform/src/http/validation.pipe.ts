import { BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import { messageForStatus } from './messages';

/**
 * DTO validation at the edge of every service: unknown fields are stripped, values are converted
 * to their declared types, and the message of the first failed rule, in the order the DTO declares them
 * (written in Chinese on the DTO), is the answer.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException(firstMessage(errors) ?? messageForStatus(400)),
  });
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    // class-validator runs a property's decorators bottom-up, so the last failure listed is the top-most declared rule.
    const own = error.constraints ? Object.values(error.constraints).at(-1) : undefined;
    if (own) return own;
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}
