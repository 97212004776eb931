import { useQuery } from '@tanstack/react-query';
import { noteQuery } from '../api/note';

/** One note's detail; a failed or missing load is an error the page turns into not-found. */
export function useNote(id: number | null) {
  return useQuery(noteQuery(id));
}

/** The id in /post?id=…, or null when missing or not a positive number. */
export function noteIdFrom(params: URLSearchParams, key = 'id'): number | null {
  const value = Number(params.get(key));
  return Number.isInteger(value) && value > 0 ? value : null;
}
