import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/Feedback';
import { useDialogFocus } from '../../../hooks/useDialogFocus';
import { unreachable } from '../../../lib/api/client';
import { toast } from '../../../lib/toast';
import { NoteDetail } from './NoteDetail';
import { RelatedNotes } from './RelatedNotes';
import { noteIdFrom, useNote } from '../hooks/useNote';

/** The open animation's length (public-side.md §2); the images load after it. */
const OPEN_MS = 400;
const CLOSE_MS = 200;

/**
 * The note detail above the page it was opened from. The address is /post?id=…; closing goes back in history
 * (restoring the address), and the browser's back button closes it by the same route. The title follows; focus
 * moves into the card and, on closing, back to the link that opened it (or the note's card on the page).
 */
export default function NoteOverlay() {
  const [params] = useSearchParams();
  const id = noteIdFrom(params);
  const target = noteIdFrom(params, 'targetCommentId');
  const note = useNote(id);
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  const [closing, setClosing] = useState(false);
  const closed = useRef(false);
  const card = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLDivElement>(null);
  useDialogFocus(card, () => document.querySelector<HTMLElement>(`article.card[data-note-id="${id}"] .card-link`));

  useEffect(() => {
    const previous = document.title;
    const timer = setTimeout(() => setReady(true), OPEN_MS);
    document.body.classList.add('no-scroll');
    return () => {
      clearTimeout(timer);
      document.title = previous;
      document.body.classList.remove('no-scroll');
    };
  }, []);

  useEffect(() => {
    document.title = `${note.data?.title || '笔记详情'} - 拾柳`;
  }, [note.data?.title]);

  // A related note opened from the end of the overlay takes its place: it starts at the top.
  useEffect(() => {
    overlay.current?.scrollTo({ top: 0 });
  }, [id]);

  const close = useCallback(() => {
    if (closed.current) return;
    closed.current = true;
    setClosing(true);
    setTimeout(() => void navigate(-1), CLOSE_MS);
  }, [navigate]);

  useEffect(() => {
    if (!note.isError) return;
    if (unreachable(note.error)) toast.error(`加载笔记失败：${note.error.message}`);
    close();
  }, [note.isError, note.error, close]);

  return (
    <div ref={overlay} className={`overlay ${closing ? 'closing' : ''}`} onMouseDown={(event) => event.target === event.currentTarget && close()} data-testid="note-overlay">
      <div ref={card} className="overlay-card" role="dialog" aria-modal="true" aria-label={note.data?.title || '笔记详情'} tabIndex={-1}>{note.data ? <NoteDetail key={note.data.id} note={note.data} ready={ready} onClose={close} targetCommentId={target} /> : <Spinner />}</div>
      {note.data && ready && <RelatedNotes noteId={note.data.id} />}
    </div>
  );
}
