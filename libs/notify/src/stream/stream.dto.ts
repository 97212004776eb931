import { IsString, MaxLength, MinLength } from 'class-validator';

/** A browser's EventSource cannot send headers: the stream opens with a single-use ticket instead of a token. */
export class StreamQuery {
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  ticket!: string;
}
