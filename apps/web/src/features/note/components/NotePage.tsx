import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../../../components/Feedback';
import { NotFound } from '../../../components/NotFound';
import { MOBILE, useMediaQuery } from '../../../hooks/useMediaQuery';
import { NoteDetail } from './NoteDetail';
import { noteIdFrom, useNote } from '../hooks/useNote';

/** /post?id=…: the note detail as a page; a missing id or failed load shows the not-found page. */
export default function NotePage() {
  const [params] = useSearchParams();
  const id = noteIdFrom(params);
  const note = useNote(id);
  const mobile = useMediaQuery(MOBILE);
  const navigate = useNavigate();
  useEffect(() => {
    if (note.data) document.title = `${note.data.title || '笔记详情'} - 拾柳`;
  }, [note.data]);
  if (id === null || note.isError) return <NotFound />;
  if (!note.data)
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  return (
    <div className="note-page">
      <NoteDetail key={note.data.id} note={note.data} ready targetCommentId={noteIdFrom(params, 'targetCommentId')} onClose={mobile ? () => void navigate('/explore') : undefined} />
    </div>
  );
}
