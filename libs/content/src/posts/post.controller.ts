import { Body, Controller, Delete, Get, Param, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, CurrentPrincipal, OptionalUserAuth, type Principal, Reply, UserAuth } from '@shiliu/platform';
import type { FastifyRequest as Request } from 'fastify';
import { IdPipe } from '@shiliu/platform';
import { viewerKey } from '../shared/viewer';
import { PostDetailQuery, PostFormDto, PostListQuery, RelatedPostsQuery } from './post.dto';
import { type DraftView, type PostPage, PostService } from './post.service';
import type { PostView } from './post.view';

@ApiTags('posts')
@Controller('api/posts')
export class PostController {
  constructor(private readonly posts: PostService) {}

  @ApiOperation({ summary: '笔记列表：推荐（未登录按热度，登录后按兴趣个性化）、分类频道（按时间）、关注的人的笔记（category=following，需登录，按时间）、用户笔记、自己的草稿（is_draft=1）' })
  @ApiErrors(401, 403)
  @OptionalUserAuth()
  @Get()
  feed(@Query() query: PostListQuery, @CurrentPrincipal() principal?: Principal): Promise<PostPage> {
    return this.posts.feed(query, principal);
  }

  @ApiOperation({ summary: '笔记详情（他人的草稿不存在；每位浏览者每小时计一次浏览）' })
  @OptionalUserAuth()
  @Get(':id')
  detail(@Param('id', IdPipe) id: number, @Query() query: PostDetailQuery, @Req() req: Request, @CurrentPrincipal() principal?: Principal): Promise<PostView | DraftView> {
    return this.posts.detail(id, principal?.id ?? null, viewerKey(req.ip ?? req.socket.remoteAddress ?? '', req.headers['user-agent'], principal), query.skipViewCount === true);
  }

  @ApiOperation({ summary: '相关推荐：与这篇笔记相近的已发布笔记（相同标签、分类、作者，以及赞过它的同学也赞过的）' })
  @OptionalUserAuth()
  @Get(':id/related')
  related(@Param('id', IdPipe) id: number, @Query() query: RelatedPostsQuery, @CurrentPrincipal() principal?: Principal): Promise<{ posts: PostView[] }> {
    return this.posts.related(id, query.limit, principal?.id ?? null);
  }

  @ApiOperation({ summary: '发布笔记或保存草稿' })
  @ApiBearerAuth()
  @UserAuth()
  @Post()
  async create(@CurrentPrincipal() principal: Principal, @Body() body: PostFormDto): Promise<Reply<PostView>> {
    const post = await this.posts.create(principal, body);
    return new Reply(post.is_draft ? '保存成功' : '发布成功', post);
  }

  @ApiOperation({ summary: '编辑自己的笔记或草稿（草稿 is_draft=0 即发布）' })
  @ApiErrors(403)
  @ApiBearerAuth()
  @UserAuth()
  @Put(':id')
  async update(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number, @Body() body: PostFormDto): Promise<Reply<PostView>> {
    return new Reply('更新成功', await this.posts.update(principal, id, body));
  }

  @ApiOperation({ summary: '删除自己的笔记或草稿' })
  @ApiErrors(403)
  @ApiBearerAuth()
  @UserAuth()
  @Delete(':id')
  async remove(@CurrentPrincipal() principal: Principal, @Param('id', IdPipe) id: number): Promise<Reply<{ id: number }>> {
    return new Reply('删除成功', await this.posts.remove(principal, id));
  }
}
