import { Controller, Get, Header } from '@nestjs/common';
import { CACHE_SHARED } from '@shiliu/platform';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CategoryRepository, type CategoryRow } from './category.repository';

@ApiTags('categories')
@Controller('api/categories')
export class CategoryController {
  constructor(private readonly categories: CategoryRepository) {}

  @ApiOperation({ summary: '分类（频道）列表；推荐频道不是分类' })
  @Get()
  @Header('Cache-Control', CACHE_SHARED)
  list(): Promise<CategoryRow[]> {
    return this.categories.list();
  }
}
