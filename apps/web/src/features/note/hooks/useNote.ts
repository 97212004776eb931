import { useQuery } from '@tanstack/react-query';
import { noteQuery } from '../api/note';

/** One note's detail; a missing note is not found, a load that could not be made is 加载笔记失败. */
export function useNote(id: number | null) {
  return useQuery(noteQuery(id));
}

/** The id in /post?id=…, or null when missing or not a positive number. */
export function noteIdFrom(params: URLSearchParams, key = 'id'): number | null {
  const value = Number(params.get(key));
  return Number.isInteger(value) && value > 0 ? value : null;
}
