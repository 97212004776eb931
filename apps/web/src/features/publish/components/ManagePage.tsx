import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { EmptyState, Spinner } from '../../../components/Feedback';
import { Icon } from '../../../components/Icon';
import { ConfirmDialog } from '../../../components/Modal';
import { useChannels } from '../../../hooks/useChannels';
import { ApiError, NOTE_PLACEHOLDER, type Note } from '../../../lib/api/client';
import { sharedKeys } from '../../../lib/api/query-keys';
import { relativeTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { deleteNote, manageListQuery, publishKeys } from '../api/publish';

/** /post-management and /draft-box: the own notes (or drafts) with search, category filter, pages, edit and delete. */
export default function ManagePage({ drafts }: { drafts: boolean }) {
  const user = useSession((state) => state.user);
  const navigate = useNavigate();
  const client = useQueryClient();
  const { categories } = useChannels();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<Note | null>(null);
  const title = drafts ? '草稿箱' : '笔记管理';

  useEffect(() => {
    document.title = `${title} - 拾柳`;
  }, [title]);
  useEffect(() => {
    if (!user) toast.error('请先登录');
  }, [user]);

  const list = useQuery({ ...manageListQuery({ drafts, userId: user?.user_id, keyword, categoryId, page }), enabled: Boolean(user) });

  if (!user) return <Navigate to="/user" replace />;

  const search = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(typed.trim());
    setPage(1);
  };

  const remove = async (note: Note) => {
    setRemoving(null);
    try {
      await deleteNote(note.id);
      toast.success('删除成功');
      await client.invalidateQueries({ queryKey: publishKeys.manage });
      void client.invalidateQueries({ queryKey: sharedKeys.feeds });
    } catch (error) {
      toast.error(error instanceof ApiError ? error.message : '删除失败，请重试');
    }
  };

  const notes = list.data?.posts ?? [];
  const pages = list.data?.pagination.pages ?? 1;
  return (
    <section className="manage-page">
      <header className="publish-head">
        <h1>{title}</h1>
        <Link to="/publish" className="button primary small">
          <Icon name="plus" size={16} />
          {drafts ? '新建' : '发布笔记'}
        </Link>
      </header>
      <div className="manage-filters">
        <form className="manage-search" role="search" onSubmit={search}>
          <Icon name="search" size={16} />
          <input value={typed} onChange={(event) => setTyped(event.target.value)} placeholder={drafts ? '搜索草稿' : '搜索笔记'} aria-label={drafts ? '搜索草稿' : '搜索笔记'} enterKeyHint="search" />
        </form>
        <select
          value={categoryId ?? ''}
          aria-label="分类筛选"
          onChange={(event) => {
            setCategoryId(event.target.value ? Number(event.target.value) : null);
            setPage(1);
          }}
        >
          <option value="">全部分类</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <div className="page-loading">
          <Spinner />
        </div>
      ) : notes.length === 0 ? (
        <EmptyState text={list.isError ? (drafts ? '获取草稿列表失败，请重试' : '加载失败') : drafts ? '暂无草稿' : '暂无笔记'} />
      ) : (
        <ul className="manage-list">
          {notes.map((note) => {
            const cover = note.thumbnail_url ?? note.image ?? note.cover_url ?? NOTE_PLACEHOLDER;
            return (
              <li key={note.id} className="manage-item" data-note-id={note.id}>
                <img className="manage-cover" src={cover} alt={note.title || '笔记封面'} width={72} height={72} />
                <div className="manage-text">
                  <h2>{note.title || '无标题'}</h2>
                  <p>
                    {note.category && <span className="chip">{note.category}</span>}
                    {note.type === 2 && <span className="chip">视频</span>}
                    <time dateTime={note.created_at}>{relativeTime(note.created_at)}</time>
                  </p>
                  {!drafts && (
                    <p className="manage-stats">
                      <span>浏览 {note.view_count}</span>
                      <span>赞 {note.like_count}</span>
                      <span>评论 {note.comment_count}</span>
                      <span>收藏 {note.collect_count}</span>
                    </p>
                  )}
                </div>
                <div className="manage-actions">
                  <button type="button" className="button ghost small" onClick={() => void navigate(`/publish?draftId=${note.id}&mode=edit`)}>
                    编辑
                  </button>
                  <button type="button" className="button danger small" onClick={() => setRemoving(note)}>
                    删除
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 && (
        <nav className="pager" aria-label="分页">
          <button type="button" className="button ghost small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            上一页
          </button>
          <span>
            {page} / {pages}
          </span>
          <button type="button" className="button ghost small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            下一页
          </button>
        </nav>
      )}
      {removing && <ConfirmDialog text={`确定要删除「${removing.title || '无标题'}」吗？删除后不可恢复。`} confirmLabel="删除" onConfirm={() => void remove(removing)} onCancel={() => setRemoving(null)} />}
    </section>
  );
}
