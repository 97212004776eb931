import { Injectable, NotFoundException } from '@nestjs/common';
import { adminPage, type AdminListQuery, type AdminPage, messageForStatus } from '@shiliu/platform';
import { DataSource } from 'typeorm';
import { NotificationRepository } from '../notifications/notification.repository';
import type { NotificationType } from '../notifications/notification-type';
import { UnreadCountRepository } from '../notifications/unread-count.repository';
import { type AdminActionRow, type AdminNotificationRow, AdminNotifyRepository } from './admin-notify.repository';

/**
 * admin-and-startup.md §3 "Notification": `title` is the administrator's own for a notification made by hand, else
 * what the notification says, with the note's title where it has one.
 */
export interface AdminNotificationView {
  id: number;
  user_id: number;
  user_display_id: string | null;
  sender_id: number;
  sender_display_id: string | null;
  sender_nickname: string | null;
  type: number;
  title: string;
  target_id: number;
  post_id: number | null;
  comment_id: number | null;
  is_read: boolean;
  created_at: string;
}

/** One administrator write in any service: who, what, when. */
export interface AdminActionView {
  id: number;
  admin_id: number;
  admin_name: string;
  service: string;
  method: string;
  path: string;
  entity: string;
  target_ids: number[];
  created_at: string;
}

export interface NewAdminNotification {
  user_id: string;
  sender_id: string;
  type: NotificationType;
  target_id: number;
  post_id?: number;
  comment_id?: number;
  title?: string;
}

function notificationView(row: AdminNotificationRow): AdminNotificationView {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    user_display_id: row.user_display_id,
    sender_id: Number(row.sender_id),
    sender_display_id: row.sender_display_id,
    sender_nickname: row.sender_nickname,
    type: row.type,
    title: row.title,
    target_id: Number(row.target_id),
    post_id: row.post_id === null ? null : Number(row.post_id),
    comment_id: row.comment_id === null ? null : Number(row.comment_id),
    is_read: row.is_read,
    created_at: row.created_at.toISOString(),
  };
}

function actionView(row: AdminActionRow): AdminActionView {
  return { ...row, id: Number(row.id), admin_id: Number(row.admin_id), created_at: row.created_at.toISOString() };
}

/** Notifications in the back office, their recipients' unread counters moving with every change; and the audit log. */
@Injectable()
export class AdminNotifyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lists: AdminNotifyRepository,
    private readonly notifications: NotificationRepository,
    private readonly unread: UnreadCountRepository,
  ) {}

  async list(query: AdminListQuery): Promise<AdminPage<AdminNotificationView>> {
    const { rows, total } = await this.lists.notifications(this.dataSource.manager, query);
    return adminPage(rows.map(notificationView), query, total);
  }

  /** A notification made by hand, under the same rule as any other: one per recipient, sender, type and target. */
  async create(form: NewAdminNotification): Promise<AdminNotificationView> {
    return this.dataSource.transaction(async (manager) => {
      const recipient = await this.lists.userByProductId(manager, form.user_id);
      const sender = await this.lists.userByProductId(manager, form.sender_id);
      if (!recipient || !sender) throw new NotFoundException('用户不存在');
      const key = { userId: Number(recipient.id), senderId: Number(sender.id), type: form.type, targetId: form.target_id };
      await this.notifications.add(manager, { ...key, postId: form.post_id ?? null, commentId: form.comment_id ?? null, createdAt: new Date().toISOString() });
      const row = await this.lists.find(manager, key.userId, key.senderId, key.type, key.targetId);
      if (!row) throw new NotFoundException('用户不存在');
      if (!form.title) return notificationView(row);
      await this.lists.setTitle(manager, row.id, form.title);
      return notificationView((await this.lists.notification(manager, Number(row.id)))!);
    });
  }

  async setRead(id: number, read: boolean): Promise<AdminNotificationView> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.lists.notification(manager, id))) throw new NotFoundException(messageForStatus(404));
      await this.unread.move(manager, await this.lists.setRead(manager, id, read));
      return notificationView((await this.lists.notification(manager, id))!);
    });
  }

  async remove(ids: number[]): Promise<{ deletedCount: number }> {
    return this.dataSource.transaction(async (manager) => {
      let deletedCount = 0;
      for (const id of ids) {
        const { found, moves } = await this.lists.dismiss(manager, id);
        await this.unread.move(manager, moves);
        if (found) deletedCount += 1;
      }
      return { deletedCount };
    });
  }

  async actions(query: AdminListQuery): Promise<AdminPage<AdminActionView>> {
    const { rows, total } = await this.lists.actions(this.dataSource.manager, query);
    return adminPage(rows.map(actionView), query, total);
  }
}
