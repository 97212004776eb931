import { useQuery } from '@tanstack/react-query';
import { cardHeight, NoteCard } from '../../../components/NoteCard';
import { Waterfall } from '../../../components/Waterfall';
import { useOpenNote } from '../../../hooks/useOpenNote';
import { relatedQuery } from '../api/note';

/** 相关推荐: the notes close to this one as a waterfall of feed cards; nothing at all while there are none. */
export function RelatedNotes({ noteId }: { noteId: number }) {
  const related = useQuery(relatedQuery(noteId));
  const openNote = useOpenNote();
  const notes = related.data?.posts ?? [];
  if (notes.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-title">
      <h2 id="related-title" className="related-title">
        相关推荐
      </h2>
      <Waterfall items={notes} estimate={cardHeight} render={(note) => <NoteCard note={note} onOpen={openNote} />} />
    </section>
  );
}
