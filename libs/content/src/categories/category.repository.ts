import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export interface CategoryRow {
  id: number;
  name: string;
  category_title: string;
}

@Injectable()
export class CategoryRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<CategoryRow[]> {
    return this.dataSource.query(`SELECT "id", "name", "category_title" FROM "categories" ORDER BY "sort_order", "id"`);
  }

  async exists(manager: EntityManager, id: number): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM "categories" WHERE "id" = $1`, [id]);
    return rows.length > 0;
  }
}
