import { IsOptional, IsString } from 'class-validator';

/** The access token for a browser's EventSource, which cannot send headers; no log records it. */
export class StreamQuery {
  @IsOptional()
  @IsString()
  access_token?: string;
}
