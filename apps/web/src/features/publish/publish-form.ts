import type { PickedMentions } from '../../components/compose/mentions';
import type { PublishMode, PublishStep } from './publish-rules';

export interface ImageItem {
  id: string;
  file: File | null;
  preview: string;
  url: string | null;
  /** Why the server refused this image in the last upload, until it is sent again. */
  refused?: string;
}

export interface VideoItem {
  file: File | null;
  name: string;
  size: number;
  url: string | null;
  coverUrl: string | null;
  thumbnail: Blob | null;
  thumbnailUrl: string | null;
}

let nextId = 0;
export const newImageId = () => `img-${++nextId}`;

/** Everything the publish form holds, from the chosen mode to the upload under way. */
export interface PublishForm {
  draftId: number | null;
  mode: PublishMode;
  title: string;
  content: string;
  picked: PickedMentions;
  categoryId: number | null;
  tags: string[];
  images: ImageItem[];
  video: VideoItem | null;
  cover: File | null;
  /** The video upload's percent, while it runs. */
  progress: number | null;
  /** Why the last video upload failed, shown on the video until it is sent again or replaced. */
  videoError: string | null;
  /** The step of a publish or draft save under way. */
  step: { kind: 'publish' | 'draft'; step: PublishStep } | null;
  /** A draft to edit is still loading. */
  loading: boolean;
  /** The note being edited is already published: saving it is an update (更新成功) and needs title and text. */
  published: boolean;
}

export type PublishFormAction =
  | { type: 'set'; change: Partial<PublishForm> }
  | { type: 'mention'; picked: PickedMentions }
  | { type: 'mode'; mode: PublishMode };

export function emptyForm(draftId: number | null): PublishForm {
  return { draftId, mode: 'image', title: '', content: '', picked: {}, categoryId: null, tags: [], images: [], video: null, cover: null, progress: null, videoError: null, step: null, loading: Boolean(draftId), published: false };
}

/** The form's changes; switching the mode drops the other mode's media. */
export function publishFormReducer(form: PublishForm, action: PublishFormAction): PublishForm {
  switch (action.type) {
    case 'set':
      return { ...form, ...action.change };
    case 'mention':
      return { ...form, picked: { ...form.picked, ...action.picked } };
    case 'mode':
      if (action.mode === form.mode) return form;
      return action.mode === 'image' ? { ...form, mode: 'image', video: null, cover: null } : { ...form, mode: 'video', images: [] };
  }
}
