import { useRef } from 'react';
import { ComposeTools } from '../../../components/compose/ComposeTools';
import type { PickedMentions } from '../../../components/compose/mentions';
import { LIMITS } from '../publish-rules';

/** A note's title and text, each with its count, and the emoji and mention tools for the text. */
export function NoteText({ title, content, onTitle, onContent, onMention }: { title: string; content: string; onTitle: (title: string) => void; onContent: (content: string) => void; onMention: (picked: PickedMentions) => void }) {
  const contentField = useRef<HTMLTextAreaElement>(null);
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
          <textarea ref={contentField} value={content} maxLength={LIMITS.content} rows={8} onChange={(event) => onContent(event.target.value)} placeholder="添加正文" />
          <em>
            {content.length}/{LIMITS.content}
          </em>
        </span>
      </label>
      <ComposeTools field={contentField} value={content} onChange={onContent} onMention={onMention} maxLength={LIMITS.content} />
    </>
  );
}
