import { PaginationQuery, toPlainText } from '@shiliu/platform';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export const SEARCH_TYPES = ['all', 'posts', 'videos', 'users', 'post', 'video', 'user'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** The singular forms the web routes use (DESIGN.md §4) mean the plural ones. */
export function canonicalType(type: SearchType): 'all' | 'posts' | 'videos' | 'users' {
  switch (type) {
    case 'post':
      return 'posts';
    case 'video':
      return 'videos';
    case 'user':
      return 'users';
    case 'all':
    case 'posts':
    case 'videos':
    case 'users':
      return type;
  }
}

const KEYWORD_MAX = 100;
const TAG_MAX = 50;

/** Control characters removed and space trimmed; an empty value counts as absent. */
const optionalText = ({ value }: { value: unknown }): unknown => {
  const text = toPlainText({ value });
  return text === '' ? undefined : text;
};

export class SearchKeywordQuery extends PaginationQuery {
  @IsOptional()
  @Transform(optionalText)
  @IsString({ message: '关键词格式不正确' })
  @MaxLength(KEYWORD_MAX, { message: `关键词不能超过${KEYWORD_MAX}个字符` })
  keyword?: string;
}

/** GET /search (public-side.md §7): a keyword, a tag or both. */
export class SearchQuery extends SearchKeywordQuery {
  @IsOptional()
  @Transform(optionalText)
  @IsString({ message: '标签格式不正确' })
  @MaxLength(TAG_MAX, { message: '标签格式不正确' })
  tag?: string;

  @IsOptional()
  @IsIn(SEARCH_TYPES, { message: '搜索类型不正确' })
  type: SearchType = 'posts';
}

/** GET /search/suggest: what the user has typed so far. */
export class SuggestQuery {
  @Transform(toPlainText)
  @IsString({ message: '请输入关键词' })
  @MinLength(1, { message: '请输入关键词' })
  @MaxLength(KEYWORD_MAX, { message: `关键词不能超过${KEYWORD_MAX}个字符` })
  keyword!: string;
}
