import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';

export const BANNED_WORD_MAX = 50;
export const BANNED_WORDS_PER_CALL = 100;

/** One word (`word`) or several (`words`, or `word` with one a line or separated by commas). */
export class AddBannedWordsDto {
  @ApiPropertyOptional({ description: '一个违禁词；也可一行一个或用逗号分隔填写多个' })
  @IsOptional()
  @IsString({ message: '违禁词格式不正确' })
  @MaxLength(BANNED_WORD_MAX * BANNED_WORDS_PER_CALL, { message: '违禁词过长' })
  word?: string;

  @ApiPropertyOptional({ type: [String], description: `多个违禁词，一次最多${BANNED_WORDS_PER_CALL}个` })
  @IsOptional()
  @IsArray({ message: '违禁词格式不正确' })
  @ArrayMaxSize(BANNED_WORDS_PER_CALL, { message: `一次最多添加${BANNED_WORDS_PER_CALL}个违禁词` })
  @IsString({ each: true, message: '违禁词格式不正确' })
  words?: string[];
}
