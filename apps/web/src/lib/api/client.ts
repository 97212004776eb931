import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

/**
 * The one API client: its paths, parameters and answers are typed by the generated schema, so a field renamed
 * on the server fails this app's typecheck.
 */
export const api = createClient<paths>({ baseUrl: '/' });

export type Note = components['schemas']['PostView'];
export type NoteComment = components['schemas']['CommentView'];
export type PublicUser = components['schemas']['PublicUser'];

export const DEFAULT_AVATAR = '/default-avatar.svg';
export const NOTE_PLACEHOLDER = '/placeholder.svg';

/** A note card's image: its cover, or the placeholder when it has none (public-side.md §3 defaults). */
export function coverOf(note: Pick<Note, 'image' | 'cover_url'>): string {
  return note.image ?? note.cover_url ?? NOTE_PLACEHOLDER;
}

/** An author's, commenter's or user's avatar, or the default one. */
export function avatarOf(person: { avatar?: string | null }): string {
  return person.avatar || DEFAULT_AVATAR;
}
