import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { entityByName } from '../entities';
import { listQuery, ManagementTable, pageKey } from './ManagementTable';
import type { Row } from './types';

/** The table as the server would first render it, with its first page already in the cache. */
function render(name: string, rows: Row[], total = rows.length, pages = 1): string {
  const client = new QueryClient();
  client.setQueryData(pageKey(name, 1, {}, null), { rows, total, pages });
  return renderToStaticMarkup(createElement(QueryClientProvider, { client }, createElement(ManagementTable, { declaration: entityByName(name)! })));
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('the generic management table', () => {
  it('asks for a page with its filters and sort', () => {
    expect(listQuery(3, { user_display_id: 'stu_1' }, { field: 'fans_count', order: 'asc' })).toEqual({ page: 3, limit: 20, user_display_id: 'stu_1', sortField: 'fans_count', sortOrder: 'asc' });
    expect(listQuery(1, {}, null)).toEqual({ page: 1, limit: 20 });
  });

  it('renders the users screen: filters, sortable columns, links, booleans, dates and the pagination', () => {
    const html = render('users', [{ id: 7, user_id: 'stu_7', nickname: '小柳', avatar: '/a.png', bio: '一段很长很长的个人简介，超过二十个字以后会被截断显示', location: '上海', verified: 1, created_at: '2026-11-20T08:00:00Z' }], 45, 3);
    expect(html).toContain('aria-label="关键词"');
    expect(html).toContain('aria-label="小石榴号"');
    expect(html).toContain('aria-label="IP属地"');
    expect(html).toContain('aria-label="账号"');
    for (const sortable of ['ID', '小石榴号', '昵称', '创建时间']) expect(html).toContain(`aria-label="${sortable}升序"`);
    expect(html).not.toContain('aria-label="IP属地升序"');
    expect(html).toContain('href="/user/stu_7" target="_blank"');
    // An avatar is a lazy image: it is asked for once it nears the viewport, 3 s before it falls back.
    expect(html).toContain('<button type="button" class="cell-image" aria-label="查看大图"><div class="lazy-image loading');
    expect(text(html)).toContain('官方认证');
    expect(text(html)).toContain(new Date('2026-11-20T08:00:00Z').toLocaleString('zh-CN', { hour12: false }));
    expect(text(html)).toContain('一段很长很长的个人简介，超过二十个字以后…');
    expect(text(html)).toContain('共 45 条记录');
    expect(text(html)).toContain('第 1 / 3 页');
    expect(html.match(/class="page-button[^"]*"/g)).toHaveLength(5);
    expect(text(html)).toContain('新增');
    expect(text(html)).toContain('批量删除');
    expect(text(html)).toContain('刷新');
    expect(html).toContain('aria-label="编辑"');
    expect(html).toContain('aria-label="删除"');
  });

  it('renders mapped values, status, tags and media cells for notes', () => {
    const html = render('posts', [{ id: 3, title: '春日', user_display_id: 'stu_7', category: '校园', type: 2, is_draft: 0, content: '正文', tags: [{ id: 4, name: '樱花' }], cover_url: '/c.jpg', view_count: 1, like_count: 2, collect_count: 3, comment_count: 4, created_at: '2026-11-20T08:00:00Z' }]);
    expect(text(html)).toContain('视频');
    expect(text(html)).toContain('已发布');
    expect(text(html)).toContain('樱花');
    expect(html).toContain('aria-label="查看视频"');
  });

  it('links comments to their note and to the comment they answer, and edits them', () => {
    const html = render('comments', [{ id: 12, content: '好看', user_display_id: 'stu_8', nickname: '小八', post_id: 5, post_title: '春日', parent_id: 9, like_count: 0, created_at: '2026-11-20T08:00:00Z' }]);
    expect(html).toContain('href="/user/stu_8" target="_blank" rel="noreferrer">小八</a>');
    expect(html).toContain('aria-label="编辑"');
    expect(html).toContain('href="/post?id=5"');
    expect(html).toContain('href="/post?id=5&amp;targetCommentId=9"');
    expect(html).toContain('aria-label="笔记ID"');
  });

  it('shows the audit actions only for pending applications, with the status labels', () => {
    const html = render('audit', [
      { id: 1, user_display_id: 'stu_1', nickname: '甲', type: 1, content: { real_name: '张三' }, status: 0, created_at: '2026-11-20T08:00:00Z' },
      { id: 2, user_display_id: 'stu_2', nickname: '乙', type: 2, content: '个人', status: 2, reject_reason: '材料不全', created_at: '2026-11-20T08:00:00Z' },
      { id: 3, user_display_id: 'stu_3', nickname: '丙', type: 2, content: '个人', status: 2, reject_reason: null, created_at: '2026-11-20T08:00:00Z' },
    ]);
    // Only the application rejected without a reason says so; the pending one has no reason to miss.
    expect(text(html).match(/未填写原因/g)).toHaveLength(1);
    expect(text(html)).toContain('材料不全');
    expect(text(html)).toContain('待审核');
    expect(text(html)).toContain('已拒绝');
    expect(text(html)).toContain('官方认证');
    expect(text(html)).toContain('真实姓名：张三');
    expect(html.match(/>通过</g)).toHaveLength(1);
    expect(html.match(/>拒绝</g)).toHaveLength(1);
  });

  it('shows the administrators\' audit log read only', () => {
    const html = render('admin-actions', [{ id: 1, admin_id: 1, admin_name: 'admin', service: 'content', method: 'DELETE', path: '/api/admin/posts/3', entity: 'posts', target_ids: [3], created_at: '2026-11-20T08:00:00Z' }]);
    expect(text(html)).toContain('删除');
    expect(html).not.toContain('批量删除');
    expect(html).not.toContain('新增</button>');
    expect(html).not.toContain('aria-label="删除"');
    expect(html).not.toContain('操作</th>');
  });

  it('says so when a page is empty', () => {
    expect(text(render('tags', []))).toContain('暂无数据');
  });
});
