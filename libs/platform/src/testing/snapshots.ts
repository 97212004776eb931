import type { PostSnapshot } from '@shiliu/contracts';

let postSeq = 0;

/** A published note's snapshot as content announces it, for the tests of the services that follow content. */
export function postSnapshot(author: { id: number; userId: string }, overrides: Partial<PostSnapshot> = {}): PostSnapshot {
  const id = 5000 + ++postSeq;
  return {
    id,
    author_id: author.id,
    author_user_id: author.userId,
    title: `笔记${id}`,
    content_text: '',
    category_id: 1,
    category_title: 'study',
    type: 1,
    tags: [],
    images: [`/api/files/images/${id}.png`],
    cover_url: null,
    video_url: null,
    created_at: new Date().toISOString(),
    ...overrides,
  };
}
