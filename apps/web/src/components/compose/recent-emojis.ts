import { addRecent } from './emoji-data';

/** The recent emojis live in the browser database the spec names: EMJ, version 3, store emojis (public-side.md §3). */
const DB = 'EMJ';
const VERSION = 3;
const STORE = 'emojis';
const KEY = 'recent';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, VERSION);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('EMJ'));
  });
}

async function run<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('EMJ'));
    });
  } finally {
    db.close();
  }
}

/** The recent list, newest first; empty when the database cannot be opened (private windows may refuse it). */
export async function loadRecent(): Promise<string[]> {
  try {
    const value = await run<unknown>('readonly', (store) => store.get(KEY));
    return Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : [];
  } catch {
    return [];
  }
}

/** Puts an emoji at the front of the recent list and stores it; answers the new list. */
export async function rememberEmoji(recent: string[], emoji: string): Promise<string[]> {
  const next = addRecent(recent, emoji);
  try {
    await run('readwrite', (store) => store.put(next, KEY));
  } catch {
    // A refused database only costs the list its persistence; the picker keeps it for this page.
  }
  return next;
}
