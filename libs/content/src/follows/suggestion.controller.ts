import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, UserAuth } from '@shiliu/platform';
import { SuggestionQuery } from './suggestion.dto';
import { SuggestionService } from './suggestion.service';
import type { Suggestions } from './suggestion.view';

@ApiTags('users')
@Controller('api/users/suggestions')
export class SuggestionController {
  constructor(private readonly suggestions: SuggestionService) {}

  @ApiOperation({ summary: '推荐关注：兴趣相近频道里粉丝最多的同学，不足时补上全站粉丝最多的（不含自己和已关注的人）' })
  @ApiBearerAuth()
  @UserAuth()
  @Get()
  list(@CurrentPrincipal() principal: Principal, @Query() query: SuggestionQuery): Promise<Suggestions> {
    return this.suggestions.suggest(principal.id, query.limit);
  }
}
