import { type ArgumentMetadata, BadRequestException, ValidationPipe, type ValidationError } from '@nestjs/common';
import { messageForStatus } from './messages';

/**
 * Path parameters stay the text that came: the global conversion would read `/posts/1.0` and `/posts/01` as
 * note 1; the route's own pipe (content's `IdPipe`, say) decides what the text means.
 */
class EdgeValidationPipe extends ValidationPipe {
  /** Query objects already checked, by DTO and query: the same few (`?page=1&limit=20`) arrive on every read. */
  private readonly checkedQueries = new Map<object, Map<string, object>>();

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }

  /**
   * A query seen before answers a copy of what checking it gave then (a refused one is checked again): looking up a
   * DTO's rules was a share of every hot read's time worth having back (it showed in bench/hot-paths' profiles).
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'query' || !metadata.metatype || typeof value !== 'object' || value === null) return super.transform(value, metadata);
    let checked = this.checkedQueries.get(metadata.metatype);
    if (!checked) this.checkedQueries.set(metadata.metatype, (checked = new Map()));
    const key = JSON.stringify(value);
    let result = checked.get(key);
    if (!result) {
      result = (await super.transform(value, metadata)) as object;
      if (checked.size >= CHECKED_QUERIES_PER_DTO) checked.delete(checked.keys().next().value as string);
      checked.set(key, result);
    }
    return Object.assign(Object.create(Object.getPrototypeOf(result) as object | null) as object, result);
  }
}

/** How many distinct queries of one DTO are remembered (a keyword search makes a new one each time). */
const CHECKED_QUERIES_PER_DTO = 500;

/** Chinese characters: a validation message without any is a library default, which users never see. */
const CHINESE = /[\u4e00-\u9fff]/;

/**
 * DTO validation at the edge of every service: unknown fields are stripped, values are converted
 * to their declared types, and the message of the first failed rule, in the order the DTO declares them
 * (written in Chinese on the DTO), is the answer; a rule without a Chinese message answers with the field's name.
 */
export function createValidationPipe(): ValidationPipe {
  return new EdgeValidationPipe({
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
    if (own) return CHINESE.test(own) ? own : `参数 ${error.property} 格式不正确`;
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}
