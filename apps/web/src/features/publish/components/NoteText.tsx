import { type ClipboardEvent, useRef } from 'react';
import { ComposeTools } from '../../../components/compose/ComposeTools';
import type { PickedMentions } from '../../../components/compose/mentions';
import { LIMITS } from '../publish-rules';

/**
 * A note's title and text, each with its count, and the emoji and mention tools for the text. The text is plain (a
 * paste keeps only its words); images pasted into it go to `onPasteImages`, the note's images.
 */
export function NoteText({
  title,
  content,
  onTitle,
  onContent,
  onMention,
  onPasteImages,
}: {
  title: string;
  content: string;
  onTitle: (title: string) => void;
  onContent: (content: string) => void;
  onMention: (picked: PickedMentions) => void;
  onPasteImages?: (files: File[]) => void;
}) {
  const contentField = useRef<HTMLTextAreaElement>(null);
  const paste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (files.length === 0 || !onPasteImages) return;
    // Copying an image from a page also carries its address as text; only the image is wanted then.
    event.preventDefault();
    onPasteImages(files);
  };
  return (
    <>
      <label className="field">
        <span className="field-label">标题</span>
        <span className="counted">
          <input value={title} maxLength={LIMITS.title} onChange={(event) => onTitle(event.target.value)} placeholder="填写标题会有更多赞哦" />
          <em>
            {title.length}/{LIMITS.title}
          </em>
        </span>
      </label>
      <label className="field">
        <span className="field-label">正文</span>
        <span className="counted">
          <textarea ref={contentField} value={content} maxLength={LIMITS.content} rows={8} onChange={(event) => onContent(event.target.value)} onPaste={paste} placeholder="添加正文" />
          <em>
            {content.length}/{LIMITS.content}
          </em>
        </span>
      </label>
      <ComposeTools field={contentField} value={content} onChange={onContent} onMention={onMention} maxLength={LIMITS.content} />
    </>
  );
}
