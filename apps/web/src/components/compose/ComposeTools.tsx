import { type RefObject, useEffect, useRef, useState } from 'react';
import { Icon } from '../Icon';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { EmojiPicker } from './EmojiPicker';
import { insertAt, type PickedMentions } from './mentions';
import { MentionPicker, type MentionUser } from './MentionPicker';

/**
 * The @ and emoji buttons under a text field (the note editor and the comment composer share them): what they pick
 * goes in at the caret, and a picked user is remembered so the text is sent with mention markup.
 */
export function ComposeTools({
  field,
  value,
  onChange,
  onMention,
  maxLength,
}: {
  field: RefObject<HTMLTextAreaElement | null>;
  value: string;
  onChange: (next: string) => void;
  onMention: (picked: PickedMentions) => void;
  maxLength: number;
}) {
  const emojiButton = useRef<HTMLButtonElement>(null);
  const [panel, setPanel] = useState<'emoji' | 'mention' | null>(null);
  const caret = useRef<[number, number] | null>(null);

  // A click or Tab onto the buttons blurs the field first: its caret is kept at that moment for the insertion.
  useEffect(() => {
    const element = field.current;
    if (!element) return;
    const keep = () => {
      caret.current = [element.selectionStart, element.selectionEnd];
    };
    element.addEventListener('blur', keep);
    return () => element.removeEventListener('blur', keep);
  }, [field]);

  const insert = (text: string) => {
    const element = field.current;
    const [start, end] = caret.current ?? [value.length, value.length];
    const next = insertAt(value, Math.min(start, value.length), Math.min(end, value.length), text);
    if (next.text.length > maxLength) {
      toast.info(`最多输入${maxLength}个字`);
      return;
    }
    caret.current = [next.caret, next.caret];
    onChange(next.text);
    requestAnimationFrame(() => {
      if (!element) return;
      element.focus({ preventScroll: true });
      element.setSelectionRange(next.caret, next.caret);
    });
  };

  const mention = (user: MentionUser) => {
    setPanel(null);
    onMention({ [user.nickname]: user.user_id });
    insert(`@${user.nickname} `);
  };

  const openMention = () => {
    if (!useSession.getState().user) {
      toast.info('请先登录');
      useSession.getState().openAuth();
      return;
    }
    setPanel('mention');
  };

  return (
    <div className="compose-tools">
      <button type="button" className="compose-tool" aria-label="@用户" title="@用户" onClick={openMention}>
        <Icon name="at" size={20} />
      </button>
      <button ref={emojiButton} type="button" className={`compose-tool ${panel === 'emoji' ? 'active' : ''}`} aria-label="表情" title="表情" aria-expanded={panel === 'emoji'} onClick={() => setPanel(panel === 'emoji' ? null : 'emoji')}>
        <Icon name="smile" size={20} />
      </button>
      {panel === 'emoji' && emojiButton.current && <EmojiPicker anchor={emojiButton.current} onPick={insert} onClose={() => setPanel(null)} />}
      {panel === 'mention' && <MentionPicker onPick={mention} onClose={() => setPanel(null)} />}
    </div>
  );
}
