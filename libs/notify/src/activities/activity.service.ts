import { Injectable } from '@nestjs/common';
import { offsetOf, type PaginationQuery } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { type ActivityRow, type ActivityType, ActivityRepository } from './activity.repository';
import type { ActivityItem } from './activity.view';

const descriptions: Record<ActivityType, (content: string) => string> = {
  user_register: () => '注册了账号',
  post_publish: (title) => `发布了笔记《${title}》`,
  comment_publish: () => '发表了评论',
};

function toActivityItem(row: ActivityRow): ActivityItem {
  return {
    id: row.id,
    type: row.type,
    user_id: row.user_id ?? '',
    user_auto_id: row.user_auto_id,
    target_id: row.target_id,
    post_id: row.post_id,
    avatar: row.avatar ?? '',
    nickname: row.nickname ?? '匿名用户',
    description: descriptions[row.type](row.content),
    content: row.content,
    created_at: new Date(row.created_at).toISOString(),
  };
}

@Injectable()
export class ActivityService {
  constructor(private readonly dataSource: DataSource, private readonly activities: ActivityRepository) {}

  /** admin-and-startup.md §7: the answer's data is the list itself; a page shorter than `limit` is the last. */
  async recent(query: PaginationQuery): Promise<ActivityItem[]> {
    const rows = await this.activities.page(this.dataSource.manager, query.limit, offsetOf(query.page, query.limit));
    return rows.map(toActivityItem);
  }
}
