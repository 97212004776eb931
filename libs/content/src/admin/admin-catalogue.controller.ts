import { Body, Controller, Delete, Get, NotFoundException, Param, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminIdsDto, AdminList, AdminListParams, type AdminListQuery, AdminOperation, ApiErrors, IdPipe, messageForStatus, Reply } from '@shiliu/platform';
import { CATEGORY_LIST, COLLECTION_LIST, LIKE_LIST, TAG_LIST } from './admin-catalogue.repository';
import { AdminCatalogueService } from './admin-catalogue.service';
import { AdminCategoryDto, AdminCollectionDto, AdminLikeDto, AdminTagDto } from './admin-content.dto';

/** A single delete is a bulk delete of one: 404 when nothing went. */
async function one(removed: Promise<{ deletedCount: number }>): Promise<Reply<null>> {
  if ((await removed).deletedCount === 0) throw new NotFoundException(messageForStatus(404));
  return new Reply('删除成功', null);
}

/** admin-and-startup.md §7 `/admin/categories`. */
@ApiTags('admin-categories')
@Controller('api/admin/categories')
export class AdminCategoriesController {
  constructor(private readonly catalogue: AdminCatalogueService) {}

  @ApiOperation({ summary: '分类列表（含笔记数；仅管理员）' })
  @AdminList(CATEGORY_LIST)
  @Get()
  list(@AdminListParams(CATEGORY_LIST) query: AdminListQuery) {
    return this.catalogue.categoryList(query);
  }

  @ApiOperation({ summary: '新建分类（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Post()
  async create(@Body() body: AdminCategoryDto) {
    return new Reply('分类创建成功', await this.catalogue.createCategory(body.name, body.category_title));
  }

  @ApiOperation({ summary: '修改分类（其下笔记随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminCategoryDto) {
    return new Reply('分类更新成功', await this.catalogue.updateCategory(id, body.name, body.category_title));
  }

  @ApiOperation({ summary: '删除分类（其下还有笔记时不能删除；仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Delete(':id')
  remove(@Param('id', IdPipe) id: number) {
    return one(this.catalogue.removeCategories([id]));
  }

  @ApiOperation({ summary: '批量删除分类（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.catalogue.removeCategories(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/tags`. */
@ApiTags('admin-tags')
@Controller('api/admin/tags')
export class AdminTagsController {
  constructor(private readonly catalogue: AdminCatalogueService) {}

  @ApiOperation({ summary: '标签列表（仅管理员）' })
  @AdminList(TAG_LIST)
  @Get()
  list(@AdminListParams(TAG_LIST) query: AdminListQuery) {
    return this.catalogue.tagList(query);
  }

  @ApiOperation({ summary: '新建标签（仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Post()
  async create(@Body() body: AdminTagDto) {
    return new Reply('标签创建成功', await this.catalogue.createTag(body.name));
  }

  @ApiOperation({ summary: '重命名标签（带该标签的笔记随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminTagDto) {
    return new Reply('标签更新成功', await this.catalogue.renameTag(id, body.name));
  }

  @ApiOperation({ summary: '删除标签（从所有笔记上移除；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  remove(@Param('id', IdPipe) id: number) {
    return one(this.catalogue.removeTags([id]));
  }

  @ApiOperation({ summary: '批量删除标签（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.catalogue.removeTags(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/likes`. */
@ApiTags('admin-likes')
@Controller('api/admin/likes')
export class AdminLikesController {
  constructor(private readonly catalogue: AdminCatalogueService) {}

  @ApiOperation({ summary: '点赞列表（仅管理员）' })
  @AdminList(LIKE_LIST)
  @Get()
  list(@AdminListParams(LIKE_LIST) query: AdminListQuery) {
    return this.catalogue.likeList(query);
  }

  @ApiOperation({ summary: '以指定用户的身份点赞笔记或评论（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminLikeDto) {
    return new Reply('点赞创建成功', await this.catalogue.createLike(body.user_id, body.target_type, body.target_id));
  }

  @ApiOperation({ summary: '修改点赞（改点赞者或对象：原点赞取消、新点赞生成，计数与通知随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404, 409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminLikeDto) {
    return new Reply('点赞更新成功', await this.catalogue.updateLike(id, body.user_id, body.target_type, body.target_id));
  }

  @ApiOperation({ summary: '取消点赞（计数与通知随之更新；仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  remove(@Param('id', IdPipe) id: number) {
    return one(this.catalogue.removeLikes([id]));
  }

  @ApiOperation({ summary: '批量取消点赞（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.catalogue.removeLikes(body.ids));
  }
}

/** admin-and-startup.md §7 `/admin/collections`. */
@ApiTags('admin-collections')
@Controller('api/admin/collections')
export class AdminCollectionsController {
  constructor(private readonly catalogue: AdminCatalogueService) {}

  @ApiOperation({ summary: '收藏列表（含笔记标题；仅管理员）' })
  @AdminList(COLLECTION_LIST)
  @Get()
  list(@AdminListParams(COLLECTION_LIST) query: AdminListQuery) {
    return this.catalogue.collectionList(query);
  }

  @ApiOperation({ summary: '以指定用户的身份收藏笔记（仅管理员）' })
  @AdminOperation()
  @ApiErrors(404)
  @Post()
  async create(@Body() body: AdminCollectionDto) {
    return new Reply('收藏创建成功', await this.catalogue.createCollection(body.user_id, body.post_id));
  }

  @ApiOperation({ summary: '修改收藏（改收藏者或笔记：原收藏取消、新收藏生成，计数随之更新；仅管理员）' })
  @AdminOperation()
  @ApiErrors(404, 409)
  @Put(':id')
  async update(@Param('id', IdPipe) id: number, @Body() body: AdminCollectionDto) {
    return new Reply('收藏更新成功', await this.catalogue.updateCollection(id, body.user_id, body.post_id));
  }

  @ApiOperation({ summary: '取消收藏（仅管理员）' })
  @AdminOperation()
  @Delete(':id')
  remove(@Param('id', IdPipe) id: number) {
    return one(this.catalogue.removeCollections([id]));
  }

  @ApiOperation({ summary: '批量取消收藏（仅管理员）' })
  @AdminOperation()
  @Delete()
  async removeMany(@Body() body: AdminIdsDto) {
    return new Reply('批量删除成功', await this.catalogue.removeCollections(body.ids));
  }
}
