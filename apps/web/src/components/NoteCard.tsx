import { memo, type MouseEvent } from 'react';
import { type Note } from '../lib/api/client';
import { Avatar } from './Avatar';
import { CardLike } from './CardLike';
import { UserHover } from './HoverCard';
import { Icon, VerifiedBadge } from './Icon';
import { LazyImage, srcSetOf } from './LazyImage';

/** The cover's height to width, kept between 3:4 landscape and 4:3 portrait so the waterfall stays calm. */
export function coverRatio(note: Pick<Note, 'aspectRatio'>): number {
  const ratio = note.aspectRatio && note.aspectRatio > 0 ? 1 / note.aspectRatio : 1;
  return Math.min(4 / 3, Math.max(3 / 4, ratio));
}

/** A card's height in widths, for the waterfall's placing: the cover, and the title's line when there is one. */
export const cardHeight = (note: Note) => coverRatio(note) + (note.title ? 0.42 : 0.22);

/** How wide a card is shown: the waterfall's columns (lib/waterfall) across the page less its margins and gaps. */
const CARD_SIZES = '(max-width: 599px) calc(50vw - 13px), (max-width: 899px) calc(33vw - 14px), (max-width: 960px) calc(25vw - 16px), (max-width: 1419px) calc(25vw - 90px), calc(20vw - 75px)';

/**
 * A feed card: a real link to the note (cover, title), its author (hover card) and its like (CardLike); `eager` for the first
 * screen's. The cover has no text of its own: the link is named by the title already. The title is a heading one
 * level under the page's.
 */
export const NoteCard = memo(function NoteCard({ note, onOpen, eager = false }: { note: Note; onOpen: (event: MouseEvent<HTMLAnchorElement>, id: number) => void; eager?: boolean }) {
  const cover = note.thumbnail_url ?? note.image ?? note.cover_url;
  const author = note.nickname || note.author || '匿名用户';
  return (
    <article className="card" data-note-id={note.id}>
      <a href={`/post?id=${note.id}`} className="card-link" onClick={(event) => onOpen(event, note.id)} aria-label={note.title || '笔记'}>
        <div className="card-cover" style={{ aspectRatio: `1 / ${coverRatio(note)}` }}>
          {cover ? <LazyImage src={cover} srcSet={srcSetOf(note.image ?? note.cover_url)} sizes={CARD_SIZES} alt="" blurhash={note.blurhash} eager={eager} /> : <div className="lazy-image failed" />}
          {note.type === 2 && (
            <span className="card-video" aria-label="视频">
              <Icon name="play" size={14} filled />
            </span>
          )}
        </div>
        {note.title && <h2 className="card-title">{note.title}</h2>}
      </a>
      <div className="card-footer">
        <UserHover userId={note.user_id}>
          <a className="card-author" href={`/user/${note.user_id}`} target="_blank" rel="noreferrer">
            <Avatar src={note.user_avatar || note.avatar} size={20} />
            <span className="card-author-name">{author}</span>
            <VerifiedBadge level={note.author_verified ?? note.verified} size={12} />
          </a>
        </UserHover>
        <CardLike note={note} />
      </div>
    </article>
  );
});
