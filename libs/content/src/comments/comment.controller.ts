import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, OptionalUserAuth, type Pagination, type Principal, Reply, UserAuth } from '@shiliu/platform';
import { IdPipe } from '@shiliu/platform';
import { CommentListQuery, CreateCommentDto, ReplyListQuery } from './comment.dto';
import { CommentService } from './comment.service';
import type { CommentView } from './comment.view';

@ApiTags('comments')
@Controller('api')
export class CommentController {
  constructor(private readonly comments: CommentService) {}

  @ApiOperation({ summary: '笔记的评论（每条带回复数和前两条回复）' })
  @OptionalUserAuth()
  @Get('posts/:id/comments')
  list(@Param('id', IdPipe) id: number, @Query() query: CommentListQuery, @CurrentPrincipal() principal?: Principal): Promise<{ comments: CommentView[]; pagination: Pagination }> {
    return this.comments.list(id, principal?.id ?? null, query.page, query.limit, query.sort);
  }

  @ApiOperation({ summary: '评论的回复' })
  @OptionalUserAuth()
  @Get('comments/:id/replies')
  replies(@Param('id', IdPipe) id: number, @Query() query: ReplyListQuery, @CurrentPrincipal() principal?: Principal): Promise<{ comments: CommentView[]; pagination: Pagination }> {
    return this.comments.replies(id, principal?.id ?? null, query.page, query.limit);
  }

  @ApiOperation({ summary: '发表评论或回复' })
  @ApiErrors(404)
  @ApiBearerAuth()
  @UserAuth()
  @Post('comments')
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCommentDto): Promise<Reply<CommentView>> {
    return new Reply('评论成功', await this.comments.create(principal, body));
  }

  @ApiOperation({ summary: '删除自己的评论（一级评论连同其回复）' })
  @ApiErrors(403)
  @ApiBearerAuth()
  @UserAuth()
  @Delete('comments/:id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<{ deletedCount: number }>> {
    return new Reply('删除成功', await this.comments.remove(principal, id));
  }
}
