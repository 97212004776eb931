import { Controller, Get, Header, Query } from '@nestjs/common';
import { CACHE_SHARED } from '@shiliu/platform';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HotTagQuery, TagListQuery } from './tag.dto';
import { type HotTagRow, TagRepository, type TagRow } from './tag.repository';

@ApiTags('tags')
@Controller('api/tags')
export class TagController {
  constructor(private readonly tags: TagRepository) {}

  @ApiOperation({ summary: '标签列表（按使用次数）' })
  @Get()
  @Header('Cache-Control', CACHE_SHARED)
  list(@Query() query: TagListQuery): Promise<TagRow[]> {
    return this.tags.list(query.keyword?.trim() || undefined, query.limit);
  }

  @ApiOperation({ summary: '近期热门标签' })
  @Get('hot')
  @Header('Cache-Control', CACHE_SHARED)
  hot(@Query() query: HotTagQuery): Promise<HotTagRow[]> {
    return this.tags.hot(query.limit);
  }
}
