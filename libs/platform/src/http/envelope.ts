/** Every answer of the API (DESIGN.md §4): the HTTP status equals `code`. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export function envelope<T>(code: number, message: string, data: T): Envelope<T> {
  return { code, message, data };
}
