import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { EmptyState, Spinner } from '../../../components/Feedback';
import { NotFound } from '../../../components/NotFound';
import { MOBILE, useMediaQuery } from '../../../hooks/useMediaQuery';
import { unreachable } from '../../../lib/api/client';
import { NoteDetail } from './NoteDetail';
import { RelatedNotes } from './RelatedNotes';
import { noteIdFrom, useNote } from '../hooks/useNote';

/**
 * /post?id=…: the note detail as a page; a missing id or note shows the not-found page, a load that could not be made
 * says 加载笔记失败 with a retry.
 */
export default function NotePage() {
  const [params] = useSearchParams();
  const id = noteIdFrom(params);
  const note = useNote(id);
  const mobile = useMediaQuery(MOBILE);
  const navigate = useNavigate();
  useEffect(() => {
    if (note.data) document.title = `${note.data.title || '笔记详情'} - 拾柳`;
  }, [note.data]);
  if (note.isError && unreachable(note.error)) {
    return (
      <EmptyState text={`加载笔记失败：${note.error.message}`}>
        <button type="button" className="button primary" onClick={() => void note.refetch()}>
          重试
        </button>
      </EmptyState>
    );
  }
  if (id === null || note.isError) return <NotFound />;
  if (!note.data)
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  return (
    <>
      <div className="note-page">
        <NoteDetail key={note.data.id} note={note.data} ready targetCommentId={noteIdFrom(params, 'targetCommentId')} onClose={mobile ? () => void navigate('/explore') : undefined} />
      </div>
      <RelatedNotes noteId={note.data.id} />
    </>
  );
}
