import { Injectable, NotFoundException } from '@nestjs/common';
import { messageForStatus, offsetOf, pagination, type PaginationQuery, type Principal } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { NotificationType, type Tab, tabs, titles, typesOfTab } from './notification-type';
import type { GroupReadDto } from './notification.dto';
import { NotificationRepository, type NotificationGroupRow, type NotificationRow } from './notification.repository';
import type { NotificationGroupPage, NotificationGroupView, NotificationPage, NotificationView, UnreadCounts } from './notification.view';
import { type UnreadByTab, UnreadCountRepository } from './unread-count.repository';

const allTypes = tabs.flatMap((tab) => typesOfTab[tab]);

/** What a notification's `target_id` names: the note (1), the comment (2) or the user (3). */
function targetType(type: NotificationType): number {
  if (type === NotificationType.follow) return 3;
  if (type === NotificationType.likePost || type === NotificationType.collectPost || type === NotificationType.mentionInPost) return 1;
  return 2;
}

export function toNotificationView(row: NotificationRow): NotificationView {
  return {
    id: row.id,
    type: row.type,
    title: titles[row.type],
    is_read: row.is_read ? 1 : 0,
    created_at: new Date(row.created_at).toISOString(),
    from_user_id: row.sender_user_id ?? '',
    from_user_auto_id: row.sender_id,
    from_nickname: row.sender_nickname ?? '匿名用户',
    from_avatar: row.sender_avatar,
    from_verified: row.sender_verified,
    post_image: row.post_image,
    target_id: row.target_id,
    target_type: targetType(row.type),
    post_id: row.post_id,
    comment_id: row.comment_id,
    comment_content: row.comment_content,
    comment_is_liked: row.comment_is_liked,
    comment_like_count: row.comment_like_count,
    parent_comment_content: row.parent_comment_content,
    post_author_id: row.post_author_id,
    follow_count: row.sender_follow_count,
    fans_count: row.sender_fans_count,
  };
}

export function toGroupView(row: NotificationGroupRow): NotificationGroupView {
  return {
    type: row.type,
    title: titles[row.type],
    day: row.day,
    target_id: row.target_id,
    target_type: targetType(row.type),
    actors: row.actors.map((actor) => ({ user_id: actor.user_id ?? '', nickname: actor.nickname ?? '匿名用户', avatar: actor.avatar, verified: actor.verified })),
    actor_count: row.actor_count,
    latest_at: new Date(row.latest_at).toISOString(),
    is_read: row.is_read ? 1 : 0,
    post_id: row.post_id,
    post_title: row.post_title,
    post_image: row.post_image,
    comment_id: row.comment_id,
    comment_content: row.comment_content,
  };
}

export function toUnreadCounts(counts: UnreadByTab): UnreadCounts {
  const total = counts.comments + counts.likes + counts.collections + counts.follows;
  return { ...counts, total, count: total };
}

/** The recipient's side: their pages, marking read, deleting. Someone else's notification answers 404 like a missing one. */
@Injectable()
export class NotificationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly notifications: NotificationRepository,
    private readonly unread: UnreadCountRepository,
  ) {}

  async list(principal: Principal, tab: Tab, query: PaginationQuery): Promise<NotificationPage> {
    const { rows, total } = await this.notifications.page(this.dataSource.manager, Number(principal.id), typesOfTab[tab], query.limit, offsetOf(query.page, query.limit));
    return { notifications: rows.map(toNotificationView), pagination: pagination(query.page, query.limit, total) };
  }

  /** The likes or collections tab with one item per note (or comment) and day. */
  async groups(principal: Principal, tab: 'likes' | 'collections', query: PaginationQuery): Promise<NotificationGroupPage> {
    const { rows, total } = await this.notifications.groupPage(this.dataSource.manager, Number(principal.id), typesOfTab[tab], query.limit, offsetOf(query.page, query.limit));
    return { groups: rows.map(toGroupView), pagination: pagination(query.page, query.limit, total) };
  }

  async counts(userId: number): Promise<UnreadCounts> {
    return toUnreadCounts(await this.unread.of(this.dataSource.manager, userId));
  }

  async read(principal: Principal, id: number): Promise<UnreadCounts> {
    const userId = Number(principal.id);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.notifications.owns(manager, userId, id))) throw new NotFoundException(messageForStatus(404));
      await this.notifications.markRead(manager, userId, [id], allTypes);
    });
    return this.counts(userId);
  }

  /** Marks a whole group read; a group the user does not have answers 404 like a missing notification. */
  async readGroup(principal: Principal, group: GroupReadDto): Promise<UnreadCounts> {
    const userId = Number(principal.id);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.notifications.markGroupRead(manager, userId, { type: group.type, targetId: group.target_id, day: group.day }))) {
        throw new NotFoundException(messageForStatus(404));
      }
    });
    return this.counts(userId);
  }

  async readAll(principal: Principal, tab: Tab | undefined): Promise<UnreadCounts> {
    const userId = Number(principal.id);
    await this.dataSource.transaction((manager) => this.notifications.markRead(manager, userId, null, tab ? typesOfTab[tab] : allTypes));
    return this.counts(userId);
  }

  async remove(principal: Principal, id: number): Promise<UnreadCounts> {
    const userId = Number(principal.id);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.notifications.owns(manager, userId, id))) throw new NotFoundException(messageForStatus(404));
      await this.notifications.dismiss(manager, userId, id);
    });
    return this.counts(userId);
  }
}
