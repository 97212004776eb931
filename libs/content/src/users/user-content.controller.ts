import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, OptionalUserAuth, type Pagination, type Principal } from '@shiliu/platform';
import { PagingOnlyQuery, UserPostListQuery } from '../posts/post.dto';
import { type PostPage, PostService } from '../posts/post.service';
import type { PostView } from '../posts/post.view';

/** The profile tabs (public-side.md §7 "Users"): `{user_id}` is the public product ID. */
@ApiTags('users')
@Controller('api/users/:user_id')
export class UserContentController {
  constructor(private readonly posts: PostService) {}

  @ApiOperation({ summary: '用户发布的笔记' })
  @OptionalUserAuth()
  @Get('posts')
  published(@Param('user_id') userId: string, @Query() query: UserPostListQuery, @CurrentPrincipal() principal?: Principal): Promise<PostPage> {
    return this.posts.userPosts(userId, query, principal);
  }

  @ApiOperation({ summary: '用户收藏的笔记（最近收藏在前）' })
  @OptionalUserAuth()
  @Get('collections')
  async collections(@Param('user_id') userId: string, @Query() query: PagingOnlyQuery, @CurrentPrincipal() principal?: Principal): Promise<{ collections: PostView[]; pagination: Pagination }> {
    const { posts, pagination } = await this.posts.reacted('collections', userId, query.page, query.limit, principal);
    return { collections: posts, pagination };
  }

  @ApiOperation({ summary: '用户点赞的笔记（最近点赞在前）' })
  @OptionalUserAuth()
  @Get('likes')
  likes(@Param('user_id') userId: string, @Query() query: PagingOnlyQuery, @CurrentPrincipal() principal?: Principal): Promise<{ posts: PostView[]; pagination: Pagination }> {
    return this.posts.reacted('likes', userId, query.page, query.limit, principal);
  }
}
