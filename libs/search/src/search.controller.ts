import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, OptionalUserAuth, type Principal } from '@shiliu/platform';
import { SearchKeywordQuery, SearchQuery, SuggestQuery } from './search.dto';
import { SearchService } from './search.service';
import type { SearchPagination, SearchPostView, SearchResult, SuggestionList } from './search.view';

/** public-side.md §7 "Notes, comments, likes, tags, search" and the header's search panel (§2). */
@ApiTags('search')
@ApiBearerAuth()
@Controller('api/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @ApiOperation({ summary: '搜索笔记、视频和用户（keyword 与 tag 至少一个），附标签统计' })
  @ApiErrors(503)
  @OptionalUserAuth()
  @Get()
  all(@Query() query: SearchQuery, @CurrentPrincipal() principal?: Principal): Promise<SearchResult> {
    return this.search.search(query, principal);
  }

  @ApiOperation({ summary: '按关键词搜索笔记（图文与视频）' })
  @ApiErrors(503)
  @OptionalUserAuth()
  @Get('posts')
  posts(@Query() query: SearchKeywordQuery, @CurrentPrincipal() principal?: Principal): Promise<{ posts: SearchPostView[]; pagination: SearchPagination }> {
    return this.search.searchPosts(query, principal);
  }

  @ApiOperation({ summary: '搜索联想：笔记标题、标签和昵称的补全（最多 10 条）' })
  @ApiErrors(503)
  @Get('suggest')
  suggest(@Query() query: SuggestQuery): Promise<SuggestionList> {
    return this.search.suggest(query.keyword);
  }
}
