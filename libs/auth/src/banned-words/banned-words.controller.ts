import { Body, Controller, Delete, Get, Header, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminIdsDto, AdminList, AdminListParams, type AdminListQuery, AdminOperation, ApiErrors, CACHE_SHARED, IdPipe, Reply } from '@shiliu/platform';
import { AddBannedWordsDto } from './banned-word.dto';
import { BANNED_WORD_LIST } from './banned-word.repository';
import { BannedWordsService } from './banned-words.service';

/** The list in force, for the web app's text-image dialog, which checks before drawing. */
@ApiTags('banned-words')
@Controller('api/banned-words')
export class BannedWordsController {
  constructor(private readonly bannedWords: BannedWordsService) {}

  @ApiOperation({ summary: '违禁词列表（已规范化：小写、半角、无空格；version 随每次修改增加）' })
  @Get()
  @Header('Cache-Control', CACHE_SHARED)
  inForce() {
    return this.bannedWords.inForce();
  }
}

/** The back office's 违禁词 page: list, add, delete; every service refuses text holding a listed word. */
@ApiTags('admin-banned-words')
@Controller('api/admin/banned-words')
export class AdminBannedWordsController {
  constructor(private readonly bannedWords: BannedWordsService) {}

  @ApiOperation({ summary: '违禁词列表（分页，keyword 筛选；仅管理员）' })
  @AdminList(BANNED_WORD_LIST)
  @Get()
  list(@AdminListParams(BANNED_WORD_LIST) query: AdminListQuery) {
    return this.bannedWords.list(query);
  }

  @ApiOperation({ summary: '添加违禁词（word 一个或一行一个、逗号分隔多个，或 words 数组；已有的跳过；仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Post()
  async add(@Body() body: AddBannedWordsDto) {
    return new Reply('违禁词添加成功', await this.bannedWords.add(body));
  }

  @ApiOperation({ summary: '删除违禁词（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    await this.bannedWords.remove(id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除违禁词（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.bannedWords.removeMany(body.ids));
  }
}
