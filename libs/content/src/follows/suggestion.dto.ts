import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const SUGGESTIONS_DEFAULT = 8;
export const SUGGESTIONS_MAX = 30;

/** GET /users/suggestions: how many people to suggest. */
export class SuggestionQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit 必须是 1-${SUGGESTIONS_MAX} 的整数` })
  @Min(1, { message: `limit 必须是 1-${SUGGESTIONS_MAX} 的整数` })
  @Max(SUGGESTIONS_MAX, { message: `limit 必须是 1-${SUGGESTIONS_MAX} 的整数` })
  limit: number = SUGGESTIONS_DEFAULT;
}
