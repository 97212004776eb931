/** What one cell shows (admin-and-startup.md §2.7, cell kinds). */
export type CellKind =
  | { kind: 'text' }
  | { kind: 'image' }
  | { kind: 'gallery' }
  | { kind: 'date' }
  | { kind: 'map'; labels: Record<string, string> }
  | { kind: 'status'; labels: Record<string, { label: string; tone: 'pending' | 'ok' | 'bad' | 'muted' }> }
  | { kind: 'boolean'; yes?: string; no?: string }
  | { kind: 'array' }
  /** Opens /user/{display id} in a new tab; `display` names the field holding the public id. */
  | { kind: 'user'; display: string }
  | { kind: 'post' }
  /** Opens the note at the comment; `post` names the field holding the note's id. */
  | { kind: 'comment'; post: string }
  /** `rich`: the value is a note's or comment's stored markup, shown as its words. */
  | { kind: 'content'; max: number; labels?: Record<string, string>; empty?: (row: Row) => string | null; rich?: boolean }
  | { kind: 'tags' }
  | { kind: 'personality' };

export interface Column {
  key: string;
  label: string;
  cell?: CellKind;
  sortable?: boolean;
  width?: number;
}

export interface Option {
  value: string;
  label: string;
}

export interface Filter {
  key: string;
  label: string;
  type: 'text' | 'select';
  options?: Option[];
}

export type FieldType = 'text' | 'textarea' | 'number' | 'password' | 'select' | 'radio' | 'boolean' | 'list' | 'images' | 'datetime' | 'json';

export interface FormField {
  key: string;
  label: string;
  type: FieldType;
  options?: Option[];
  /** Options read from the server when the form opens (the post form's categories). */
  loadOptions?: () => Promise<Option[]>;
  /** Sent as a number (a select of ids whose options arrive later). */
  numeric?: boolean;
  required?: boolean;
  /** Characters for text, items for list and images. */
  max?: number;
  min?: number;
  pattern?: { regex: RegExp; message: string };
  /** Shown only for some values of the form (the post's images for image-text notes). */
  when?: (values: FormValues) => boolean;
  /** Shown only when creating, or only when editing; read-only when editing. */
  only?: 'create' | 'edit';
  readOnlyOnEdit?: boolean;
  placeholder?: string;
  /** A text field holding a stored file's address gets an upload button beside it (an avatar, a cover, a video). */
  upload?: 'image' | 'video';
}

export type FormValue = string | number | boolean | string[] | null;
export type FormValues = Record<string, FormValue>;
export type Row = Record<string, unknown> & { id: number | string };

/** What a custom row action may do: reload the table after a change, ask for a text (the reject reason). */
export interface ActionContext {
  reload(): Promise<void>;
  ask(title: string, label: string): Promise<string | null>;
}

/** A row action beyond edit and delete (the audit page's approve and reject). */
export interface RowAction {
  label: string;
  tone?: 'primary' | 'danger';
  visible?: (row: Row) => boolean;
  run: (row: Row, context: ActionContext) => Promise<void>;
}

/** One entity screen: where its calls go, its columns, filters and form (admin-and-startup.md §3, §5, §7). */
export interface EntityDeclaration {
  /** The path segment: /admin/{name} in the console, /api/admin/{name} on the server. */
  name: string;
  title: string;
  /** What the messages call one row: 用户, 笔记… */
  noun: string;
  /** Where list, create, update and delete go; /api/admin/{name} unless said. */
  path?: string;
  columns: Column[];
  filters: Filter[];
  form: FormField[];
  canCreate?: boolean;
  canEdit?: boolean;
  /** Rows that cannot be deleted (the administrators' audit log) have no delete or batch-delete mode. */
  canDelete?: boolean;
  /** The body as the server takes it, when the form's fields do not map one to one (a note's video). */
  transform?: (body: Record<string, unknown>, mode: 'create' | 'edit') => Record<string, unknown>;
  actions?: RowAction[];
  /** The values an edit form starts from, when the list row is not enough (a note's images and tags). */
  loadForEdit?: (row: Row) => Promise<FormValues>;
  /** How a delete confirmation names the row. */
  describe?: (row: Row) => string;
}
