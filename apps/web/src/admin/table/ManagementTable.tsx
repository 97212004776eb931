import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog, Modal } from '../../components/Modal';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Feedback';
import { useMediaQuery } from '../../hooks/useMediaQuery';
import { toast } from '../../lib/toast';
import { adminCall, type Query } from '../api';
import { Cell } from './cells';
import { EntityForm } from './EntityForm';
import { pageItems, type PageResult, toPage } from './pagination';
import type { ActionContext, EntityDeclaration, FormValues, Row } from './types';
import { initialValues, toBody } from './validate';

/** Default page size and the width at which the filters move into a panel (§9). */
export const PAGE_SIZE = 20;
const MOBILE = '(max-width: 960px)';

export interface Sort {
  field: string;
  order: 'asc' | 'desc';
}

export const listPath = (declaration: EntityDeclaration) => declaration.path ?? `/api/admin/${declaration.name}`;

/** The query a page is fetched with: page, limit, the applied filters and the sort (§7). */
export function listQuery(page: number, filters: Record<string, string>, sort: Sort | null): Query {
  return { page, limit: PAGE_SIZE, ...filters, ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}) };
}

export const pageKey = (name: string, page: number, filters: Record<string, string>, sort: Sort | null) => ['admin-table', name, page, filters, sort] as const;

/** A question with a required text answer (the reject reason); null when cancelled. */
function AskDialog({ title, label, onAnswer }: { title: string; label: string; onAnswer: (answer: string | null) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  return (
    <Modal title={title} onClose={() => onAnswer(null)} width={440}>
      <form
        className="admin-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!text.trim()) setError(`请输入${label}`);
          else onAnswer(text.trim());
        }}
      >
        <div className={`field admin-field${error ? ' invalid' : ''}`}>
          <label htmlFor="admin-ask" className="field-label">
            {label}
          </label>
          <textarea id="admin-ask" rows={3} value={text} maxLength={200} onChange={(event) => setText(event.target.value)} autoFocus />
          {error && <span className="field-error">{error}</span>}
        </div>
        <div className="confirm-actions">
          <button type="button" className="button ghost" onClick={() => onAnswer(null)}>
            取消
          </button>
          <button type="submit" className="button primary">
            确定
          </button>
        </div>
      </form>
    </Modal>
  );
}

type Dialog = { kind: 'form'; mode: 'create' | 'edit'; row: Row | null; values: FormValues } | { kind: 'delete'; row: Row } | { kind: 'bulk' } | { kind: 'notice'; text: string } | { kind: 'ask'; title: string; label: string; resolve: (answer: string | null) => void };

/**
 * The one management table every entity screen uses (admin-and-startup.md §2.7), driven by the entity's declaration:
 * filters, sortable columns, batch-delete mode, add and refresh, edit and delete per row or custom actions, the
 * spec's pagination with prefetch on hover, and pages cached until a change or a refresh.
 */
export function ManagementTable({ declaration }: { declaration: EntityDeclaration }) {
  const client = useQueryClient();
  const narrow = useMediaQuery(MOBILE);
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [filters, setFilters] = useState<Record<string, string>>({});
  const [sort, setSort] = useState<Sort | null>(null);
  const [batch, setBatch] = useState(false);
  const [selected, setSelected] = useState<Set<Row['id']>>(new Set());
  const [panel, setPanel] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const path = listPath(declaration);
  const fetchPage = (at: number) => () => adminCall<unknown>('GET', path, { query: listQuery(at, filters, sort) }).then((data) => toPage<Row>(data, at, PAGE_SIZE));
  const list = useQuery<PageResult<Row>>({ queryKey: pageKey(declaration.name, page, filters, sort), queryFn: fetchPage(page), staleTime: Infinity, placeholderData: keepPreviousData, retry: false });
  // §8: a failed load is only logged; the table keeps what it showed.
  useEffect(() => {
    if (list.error) console.error(`${declaration.title}加载失败`, list.error);
  }, [list.error, declaration.title]);
  const rows = list.data?.rows ?? [];
  const total = list.data?.total ?? 0;
  const pages = list.data?.pages ?? 1;

  /** After any change the cached pages are stale: drop them all and load the current one again (§4). */
  const reload = () => {
    setSelected(new Set());
    return client.resetQueries({ queryKey: ['admin-table', declaration.name] });
  };
  const prefetch = (at: number) => client.prefetchQuery({ queryKey: pageKey(declaration.name, at, filters, sort), queryFn: fetchPage(at), staleTime: Infinity });
  const apply = (next: Record<string, string>) => {
    setFilters(Object.fromEntries(Object.entries(next).filter(([, value]) => value.trim() !== '').map(([key, value]) => [key, value.trim()])));
    setPage(1);
    setPanel(false);
  };
  const clear = () => {
    setDraft({});
    apply({});
  };
  const sortBy = (field: string, order: Sort['order']) => {
    setSort(sort?.field === field && sort.order === order ? null : { field, order });
    setPage(1);
  };
  const toggle = (id: Row['id']) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const failure = (prefix: string, error: unknown, fallback: string) => setDialog({ kind: 'notice', text: (error as Error)?.message ? `${prefix}：${(error as Error).message}` : fallback });

  const remove = async (row: Row) => {
    setDialog(null);
    try {
      await adminCall('DELETE', `${path}/${row.id}`);
      toast.success('删除成功');
      await reload();
    } catch (error) {
      failure('删除失败', error, '删除失败');
    }
  };
  const removeSelected = async () => {
    setDialog(null);
    try {
      await adminCall('DELETE', path, { body: { ids: [...selected] } });
      toast.success(`已删除 ${selected.size} 个${declaration.noun}`);
      setBatch(false);
      await reload();
    } catch (error) {
      failure('批量删除失败', error, '删除失败');
    }
  };
  const openEdit = async (row: Row) => {
    try {
      const values = declaration.loadForEdit ? await declaration.loadForEdit(row) : initialValues(declaration.form, row);
      setDialog({ kind: 'form', mode: 'edit', row, values });
    } catch (error) {
      failure('操作失败', error, '操作失败');
    }
  };
  const save = async (mode: 'create' | 'edit', row: Row | null, values: FormValues) => {
    try {
      const fields = toBody(declaration.form, values, mode);
      const body = declaration.transform ? declaration.transform(fields, mode) : fields;
      if (mode === 'create') await adminCall('POST', path, { body });
      else await adminCall('PUT', `${path}/${row!.id}`, { body });
      toast.success(`${declaration.noun}${mode === 'create' ? '创建' : '更新'}成功`);
      setDialog(null);
      await reload();
    } catch (error) {
      failure('操作失败', error, '操作失败');
    }
  };
  const context: ActionContext = {
    reload,
    ask: (title, label) => new Promise((resolve) => setDialog({ kind: 'ask', title, label, resolve })),
  };

  const filterInputs = declaration.filters.map((filter) => (
    <label key={filter.key} className="admin-filter">
      <span>{filter.label}</span>
      {filter.type === 'select' ? (
        <select aria-label={filter.label} value={draft[filter.key] ?? ''} onChange={(event) => setDraft({ ...draft, [filter.key]: event.target.value })}>
          <option value="">全部</option>
          {filter.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input aria-label={filter.label} value={draft[filter.key] ?? ''} placeholder={`请输入${filter.label}`} onChange={(event) => setDraft({ ...draft, [filter.key]: event.target.value })} onKeyDown={(event) => event.key === 'Enter' && apply(draft)} />
      )}
    </label>
  ));
  const active = Object.keys(filters).length;
  const hasActions = declaration.canEdit !== false || declaration.canDelete !== false || !!declaration.actions?.length;

  return (
    <section className="admin-table-page" aria-label={declaration.title}>
      <div className="admin-toolbar">
        {declaration.filters.length > 0 &&
          (narrow ? (
            <button type="button" className="button ghost small" onClick={() => setPanel(true)}>
              <Icon name="search" size={16} /> 筛选{active ? ` (${active})` : ''}
            </button>
          ) : (
            <div className="admin-filters" role="search">
              {filterInputs}
              <button type="button" className="button primary small" onClick={() => apply(draft)}>
                筛选
              </button>
              <button type="button" className="button ghost small" onClick={clear}>
                清空
              </button>
            </div>
          ))}
        <div className="admin-toolbar-actions">
          {batch ? (
            <>
              <span className="muted">已选择 {selected.size} 项</span>
              <button type="button" className="button danger small" onClick={() => (selected.size ? setDialog({ kind: 'bulk' }) : toast.error('请选择要删除的项目'))}>
                确认删除 ({selected.size})
              </button>
              <button
                type="button"
                className="button ghost small"
                onClick={() => {
                  setBatch(false);
                  setSelected(new Set());
                }}
              >
                取消
              </button>
            </>
          ) : (
            <>
              {declaration.canCreate !== false && (
                <button type="button" className="button primary small" onClick={() => setDialog({ kind: 'form', mode: 'create', row: null, values: initialValues(declaration.form, null) })}>
                  <Icon name="plus" size={16} /> 新增
                </button>
              )}
              {declaration.canDelete !== false && (
                <button type="button" className="button ghost small" onClick={() => setBatch(true)}>
                  <Icon name="trash" size={16} /> 批量删除
                </button>
              )}
              <button type="button" className="button ghost small" onClick={() => reload()}>
                <Icon name="refresh" size={16} /> 刷新
              </button>
            </>
          )}
        </div>
      </div>

      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              {batch && (
                <th className="admin-check">
                  <input type="checkbox" aria-label="全选" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map((row) => row.id)))} />
                </th>
              )}
              {declaration.columns.map((column) => (
                <th key={column.key} style={column.width ? { minWidth: column.width } : undefined} aria-sort={sort?.field === column.key ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined}>
                  <span className="admin-th">
                    {column.label}
                    {column.sortable && (
                      <span className="admin-sort">
                        <button type="button" aria-label={`${column.label}升序`} className={sort?.field === column.key && sort.order === 'asc' ? 'active' : ''} onClick={() => sortBy(column.key, 'asc')}>
                          ▲
                        </button>
                        <button type="button" aria-label={`${column.label}降序`} className={sort?.field === column.key && sort.order === 'desc' ? 'active' : ''} onClick={() => sortBy(column.key, 'desc')}>
                          ▼
                        </button>
                      </span>
                    )}
                  </span>
                </th>
              ))}
              {hasActions && <th className="admin-actions-head">操作</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-row-id={row.id} className={selected.has(row.id) ? 'selected' : ''}>
                {batch && (
                  <td className="admin-check">
                    <input type="checkbox" aria-label={`选择 ${row.id}`} checked={selected.has(row.id)} onChange={() => toggle(row.id)} />
                  </td>
                )}
                {declaration.columns.map((column) => (
                  <td key={column.key} data-column={column.key}>
                    <Cell row={row} field={column.key} cell={column.cell} label={column.label} />
                  </td>
                ))}
                {hasActions && (
                <td className="admin-row-actions">
                  {declaration.actions
                    ?.filter((action) => !action.visible || action.visible(row))
                    .map((action) => (
                      <button key={action.label} type="button" className={`button small ${action.tone === 'danger' ? 'danger' : action.tone === 'primary' ? 'primary' : 'ghost'}`} onClick={() => action.run(row, context)}>
                        {action.label}
                      </button>
                    ))}
                  {declaration.canEdit !== false && (
                    <button type="button" className="icon-button small" aria-label="编辑" title="编辑" onClick={() => openEdit(row)}>
                      <svg width="17" height="17" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                        <path d="M4 20h4L19 9l-4-4L4 16zM14 6l4 4" />
                      </svg>
                    </button>
                  )}
                  {declaration.canDelete !== false && (
                    <button type="button" className="icon-button small danger" aria-label="删除" title="删除" onClick={() => setDialog({ kind: 'delete', row })}>
                      <Icon name="trash" size={17} />
                    </button>
                  )}
                </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        {!list.isPending && rows.length === 0 && <p className="admin-empty">暂无数据</p>}
        {list.isFetching && (
          <div className="admin-loading" aria-label="加载中">
            <Spinner />
          </div>
        )}
      </div>

      <nav className="admin-pagination" aria-label="分页">
        <span className="muted">共 {total} 条记录</span>
        <span className="muted">
          第 {page} / {pages} 页
        </span>
        <button type="button" className="page-button" disabled={page <= 1} onClick={() => setPage(page - 1)} onMouseEnter={() => page > 1 && prefetch(page - 1)}>
          上一页
        </button>
        {pageItems(page, pages).map((item) =>
          typeof item === 'number' ? (
            <button key={item} type="button" className={`page-button${item === page ? ' active' : ''}`} aria-current={item === page ? 'page' : undefined} onClick={() => setPage(item)} onMouseEnter={() => item !== page && prefetch(item)}>
              {item}
            </button>
          ) : (
            <span key={item} className="page-gap">
              …
            </span>
          ),
        )}
        <button type="button" className="page-button" disabled={page >= pages} onClick={() => setPage(page + 1)} onMouseEnter={() => page < pages && prefetch(page + 1)}>
          下一页
        </button>
      </nav>

      {panel && (
        <Modal title="筛选" onClose={() => setPanel(false)} width={420} className="admin-filter-panel">
          <div className="admin-filters vertical">{filterInputs}</div>
          <div className="confirm-actions">
            <button type="button" className="button ghost" onClick={clear}>
              清空
            </button>
            <button type="button" className="button primary" onClick={() => apply(draft)}>
              应用
            </button>
          </div>
        </Modal>
      )}
      {dialog?.kind === 'form' && (
        <EntityForm
          title={`${dialog.mode === 'create' ? '新增' : '编辑'}${declaration.noun}`}
          fields={declaration.form}
          initial={dialog.values}
          mode={dialog.mode}
          onClose={() => setDialog(null)}
          onSubmit={(values) => save(dialog.mode, dialog.row, values)}
        />
      )}
      {dialog?.kind === 'delete' && <ConfirmDialog text={declaration.describe ? declaration.describe(dialog.row) : `确定要删除这个${declaration.noun}（ID ${dialog.row.id}）吗？`} confirmLabel="删除" onCancel={() => setDialog(null)} onConfirm={() => remove(dialog.row)} />}
      {dialog?.kind === 'bulk' && <ConfirmDialog text={`确定要删除选中的 ${selected.size} 个${declaration.noun}吗？`} confirmLabel="删除" onCancel={() => setDialog(null)} onConfirm={removeSelected} />}
      {dialog?.kind === 'ask' && (
        <AskDialog
          title={dialog.title}
          label={dialog.label}
          onAnswer={(answer) => {
            setDialog(null);
            dialog.resolve(answer);
          }}
        />
      )}
      {dialog?.kind === 'notice' && (
        <Modal onClose={() => setDialog(null)} width={360} className="confirm">
          <p className="confirm-text">{dialog.text}</p>
          <div className="confirm-actions">
            <button type="button" className="button primary" onClick={() => setDialog(null)}>
              知道了
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
