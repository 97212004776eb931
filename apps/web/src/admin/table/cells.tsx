import { useState } from 'react';
import { LAZY_IMAGES } from '../../components/image-queue';
import { LazyImage } from '../../components/LazyImage';
import { Modal } from '../../components/Modal';
import { Spinner } from '../../components/Feedback';
import { toast } from '../../lib/toast';
import { api, call } from '../../lib/api/client';
import { richTextToPlain } from '../../lib/rich-text';
import { adminCall } from '../api';
import type { CellKind, Row } from './types';

const PLACEHOLDER = '/placeholder.svg';

/** Dates in the zh-CN locale (§2.7). */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  const date = new Date(String(value));
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString('zh-CN', { hour12: false });
}

/** The text a cell falls back to, and what the content cell truncates. */
/** A value as one line of text; an object's keys are shown by their labels when given. */
export function plain(value: unknown, labels: Record<string, string> = {}): string {
  if (value === null || value === undefined || value === '') return '-';
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'object' && item ? ((item as { name?: string }).name ?? JSON.stringify(item)) : String(item))).join('、');
  if (typeof value === 'object') return Object.entries(value).map(([key, item]) => `${labels[key] ?? key}：${plain(item)}`).join('；');
  return String(value);
}

export function truncate(text: string, max: number): string {
  return [...text].length > max ? `${[...text].slice(0, max).join('')}…` : text;
}

function ImageCell({ src }: { src: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="cell-image" onClick={() => setOpen(true)} aria-label="查看大图">
        <LazyImage src={src} alt="" timeoutMs={LAZY_IMAGES.adminTimeoutMs} />
      </button>
      {open && (
        <Modal onClose={() => setOpen(false)} width={720} className="admin-media">
          <img className="admin-media-full" src={src} alt="" onError={(event) => (event.currentTarget.src = PLACEHOLDER)} />
        </Modal>
      )}
    </>
  );
}

interface NoteMedia {
  images?: (string | { url: string })[];
  video_url?: string | null;
  cover_url?: string | null;
  type?: number;
}

/** A note's images or video in a viewer (§2.7 gallery). */
function GalleryCell({ row }: { row: Row }) {
  const [media, setMedia] = useState<NoteMedia | null>(null);
  const [loading, setLoading] = useState(false);
  const [index, setIndex] = useState(0);
  const video = Number(row.type) === 2;
  const cover = String(row.cover_url ?? (Array.isArray(row.images) ? row.images[0] : '') ?? '');
  // The admin list carries the media; a row without it is read from the admin detail call, not the spec's GET /api/posts/{id}:
  // that one answers 404 for a draft (content's PostService.detail shows drafts to their author only) and counts a view.
  const open = async () => {
    setIndex(0);
    if (Array.isArray(row.images) || row.video_url) {
      setMedia(row as NoteMedia);
      return;
    }
    setLoading(true);
    try {
      setMedia(await adminCall<NoteMedia>('GET', `/api/admin/posts/${row.id}`));
    } catch (error) {
      toast.error(`${video ? '获取视频信息失败' : '获取笔记图片失败'}：${(error as Error).message}`);
    } finally {
      setLoading(false);
    }
  };
  const images = (media?.images ?? []).map((image) => (typeof image === 'string' ? image : image.url));
  return (
    <>
      <button type="button" className="cell-gallery" onClick={open} aria-label={video ? '查看视频' : '查看图片'}>
        {cover ? <img src={cover} alt="" loading="lazy" onError={(event) => (event.currentTarget.src = PLACEHOLDER)} /> : <span className="cell-gallery-empty">{video ? '视频' : '图片'}</span>}
        {loading && <Spinner />}
      </button>
      {media && (
        <Modal onClose={() => setMedia(null)} width={760} className="admin-media" title={video ? '视频' : `图片 ${images.length ? index + 1 : 0} / ${images.length}`}>
          {video && media.video_url ? (
            <video className="admin-media-full" src={media.video_url} poster={media.cover_url ?? undefined} controls />
          ) : images.length ? (
            <>
              <img className="admin-media-full" src={images[index]} alt="" onError={(event) => (event.currentTarget.src = PLACEHOLDER)} />
              {images.length > 1 && (
                <div className="admin-media-thumbs">
                  {images.map((image, position) => (
                    <button key={image + position} type="button" className={position === index ? 'active' : ''} onClick={() => setIndex(position)} aria-label={`第${position + 1}张`}>
                      <img src={image} alt="" />
                    </button>
                  ))}
                </div>
              )}
            </>
          ) : (
            <p className="muted">暂无图片</p>
          )}
        </Modal>
      )}
    </>
  );
}

function ContentCell({ text, max, title }: { text: string; max: number; title: string }) {
  const [open, setOpen] = useState(false);
  const short = truncate(text, max);
  if (short === text) return <span className="cell-text">{text}</span>;
  return (
    <>
      <button type="button" className="cell-more" onClick={() => setOpen(true)} title="查看详情">
        {short}
      </button>
      {open && (
        <Modal title={title} onClose={() => setOpen(false)} width={560}>
          <p className="admin-detail-text">{text}</p>
        </Modal>
      )}
    </>
  );
}

function TagsCell({ tags }: { tags: unknown }) {
  const [open, setOpen] = useState(false);
  const list = (Array.isArray(tags) ? tags : []).map((tag) => (typeof tag === 'object' && tag ? (tag as { id?: number; name: string }) : { name: String(tag) }));
  if (!list.length) return <span className="muted">-</span>;
  return (
    <>
      <button type="button" className="cell-chips" onClick={() => setOpen(true)}>
        {list.slice(0, 2).map((tag) => (
          <span key={tag.name} className="admin-chip">
            {tag.name}
          </span>
        ))}
        {list.length > 2 && <span className="admin-chip">+{list.length - 2}</span>}
      </button>
      {open && (
        <Modal title="标签" onClose={() => setOpen(false)} width={420}>
          <table className="admin-mini-table">
            <thead>
              <tr>
                <th>名称</th>
                <th>ID</th>
              </tr>
            </thead>
            <tbody>
              {list.map((tag) => (
                <tr key={tag.name}>
                  <td>{tag.name}</td>
                  <td>{tag.id ?? '-'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Modal>
      )}
    </>
  );
}

interface Personality {
  gender: string | null;
  zodiac_sign: string | null;
  mbti: string | null;
  education: string | null;
  major: string | null;
  interests: string[];
}


/** The personality-tags modal (§2.7): gender, zodiac, MBTI, education, major, interests; "未设置" when empty. */
export function personalityRows(tags: Personality): [string, string][] {
  const or = (value: string | null | undefined) => value || '未设置';
  return [
    ['性别', or(tags.gender)],
    ['星座', or(tags.zodiac_sign)],
    ['MBTI', or(tags.mbti)],
    ['学历', or(tags.education)],
    ['专业', or(tags.major)],
    ['兴趣', tags.interests?.length ? tags.interests.join('、') : '未设置'],
  ];
}

function PersonalityCell({ row }: { row: Row }) {
  const [tags, setTags] = useState<Personality | null>(null);
  const userId = String(row.user_id ?? row.user_display_id ?? '');
  const open = async () => {
    if (row.personality_tags && typeof row.personality_tags === 'object') {
      setTags(row.personality_tags as Personality);
      return;
    }
    try {
      // A public call: it goes without the administrator's token.
      setTags(await call(api.GET('/api/users/{user_id}/personality-tags', { params: { path: { user_id: userId } } })));
    } catch (error) {
      toast.error((error as Error).message);
    }
  };
  return (
    <>
      <button type="button" className="text-button accent small-text" onClick={open}>
        查看
      </button>
      {tags && (
        <Modal title="个性标签" onClose={() => setTags(null)} width={380}>
          <dl className="admin-pairs">
            {personalityRows(tags).map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd className={value === '未设置' ? 'muted' : ''}>{value}</dd>
              </div>
            ))}
          </dl>
        </Modal>
      )}
    </>
  );
}

const link = (href: string, text: string) => (
  <a className="cell-link" href={href} target="_blank" rel="noreferrer">
    {text}
  </a>
);

/** One cell of the management table by its column's kind. */
export function Cell({ row, field, cell = { kind: 'text' }, label }: { row: Row; field: string; cell?: CellKind; label: string }) {
  const value = row[field];
  switch (cell.kind) {
    case 'image':
      return value ? <ImageCell src={String(value)} /> : <span className="muted">-</span>;
    case 'gallery':
      return <GalleryCell row={row} />;
    case 'date':
      return <span className="cell-date">{formatDate(value)}</span>;
    case 'map':
      return <span>{cell.labels[String(value)] ?? plain(value)}</span>;
    case 'status': {
      const status = cell.labels[String(value)];
      return status ? <span className={`admin-status ${status.tone}`}>{status.label}</span> : <span>{plain(value)}</span>;
    }
    case 'boolean': {
      const on = value === true || value === 1 || value === '1';
      return <span className={`admin-status ${on ? 'ok' : 'muted'}`}>{on ? (cell.yes ?? '是') : (cell.no ?? '否')}</span>;
    }
    case 'array':
      return Array.isArray(value) && value.length ? (
        <span className="cell-chips">
          {value.map((item, index) => (
            <span key={index} className="admin-chip">
              {plain(item)}
            </span>
          ))}
        </span>
      ) : (
        <span className="muted">-</span>
      );
    case 'user': {
      const display = row[cell.display];
      return display ? link(`/user/${encodeURIComponent(String(display))}`, String(value ?? display)) : <span>{plain(value)}</span>;
    }
    case 'post':
      return value ? link(`/post?id=${value}`, String(value)) : <span className="muted">-</span>;
    case 'comment':
      return value && row[cell.post] ? link(`/post?id=${row[cell.post]}&targetCommentId=${value}`, String(value)) : <span className="muted">-</span>;
    case 'content': {
      const empty = value === null || value === undefined || value === '' ? cell.empty?.(row) : null;
      return empty ? <span className="muted">{empty}</span> : <ContentCell text={cell.rich && typeof value === 'string' ? richTextToPlain(value) : plain(value, cell.labels)} max={cell.max} title={label} />;
    }
    case 'tags':
      return <TagsCell tags={value} />;
    case 'personality':
      return <PersonalityCell row={row} />;
    case 'text':
      return <span className="cell-text">{plain(value)}</span>;
  }
}
