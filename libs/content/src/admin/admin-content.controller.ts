import { Body, Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminIdsDto, AdminList, AdminListParams, type AdminListQuery, AdminOperation, ApiErrors, IdPipe, Reply } from '@shiliu/platform';
import { AdminCreateCommentDto, AdminCreatePostDto, AdminUpdateCommentDto, AdminUpdatePostDto } from './admin-content.dto';
import { COMMENT_LIST, POST_LIST } from './admin-content.repository';
import { AdminContentService } from './admin-content.service';

/** admin-and-startup.md §7 `/admin/posts`: the notes table and its edit form. */
@ApiTags('admin-posts')
@Controller('api/admin/posts')
export class AdminPostsController {
  constructor(private readonly content: AdminContentService) {}

  @ApiOperation({ summary: '笔记列表（分页、筛选、排序；仅管理员）' })
  @AdminList(POST_LIST)
  @Get()
  list(@AdminListParams(POST_LIST) query: AdminListQuery) {
    return this.content.postList(query);
  }

  @ApiOperation({ summary: '笔记详情（编辑用：图片、标签、类型、封面、视频；仅管理员）' })
  @AdminOperation()
  @Get(':id')
  detail(@Param('id', IdPipe) id: number) {
    return this.content.post(id);
  }

  @ApiOperation({ summary: '以指定用户的身份发布笔记或存草稿（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminCreatePostDto) {
    return new Reply('笔记创建成功', await this.content.createPost(body));
  }

  @ApiOperation({ summary: '修改笔记（与作者编辑相同的规则与事件，另可设浏览量；仅管理员）' })
  @AdminOperation()
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminUpdatePostDto) {
    return new Reply('笔记更新成功', await this.content.updatePost(id, body));
  }

  @ApiOperation({ summary: '删除笔记（与作者删除相同：计数、通知、搜索随之更新；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    await this.content.removePost(id);
    return new Reply('删除成功', null);
  }

  @ApiOperation({ summary: '批量删除笔记（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.content.removePosts(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/comments`. */
@ApiTags('admin-comments')
@Controller('api/admin/comments')
export class AdminCommentsController {
  constructor(private readonly content: AdminContentService) {}

  @ApiOperation({ summary: '评论列表（可按笔记筛选；仅管理员）' })
  @AdminList(COMMENT_LIST)
  @Get()
  list(@AdminListParams(COMMENT_LIST) query: AdminListQuery) {
    return this.content.commentList(query);
  }

  @ApiOperation({ summary: '以指定用户的身份发表评论或回复（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminCreateCommentDto) {
    return new Reply('评论创建成功', await this.content.createComment(body));
  }

  @ApiOperation({ summary: '修改评论内容（与新评论相同的规则；新 @ 到的用户收到提醒；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminUpdateCommentDto) {
    return new Reply('评论更新成功', await this.content.updateComment(id, body));
  }

  @ApiOperation({ summary: '删除评论（一级评论连同其回复；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  async remove(@Param('id', IdPipe) id: number) {
    return new Reply('删除成功', await this.content.removeComment(id));
  }

  @ApiOperation({ summary: '批量删除评论（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.content.removeComments(body.ids));
  }
}
