import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from '../../../lib/toast';
import { tagsQuery } from '../api/publish';
import { LIMITS, tagState, tagSuggestions } from '../publish-rules';

/** A note's tags: typed (Enter or a comma adds one), suggested from the known tags, removable, ten at most. */
export function TagInput({ tags, setTags }: { tags: string[]; setTags: (next: string[]) => void }) {
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const known = useQuery(tagsQuery());
  const state = tagState(tags, text);
  const add = (value: string) => {
    const next = tagState(tags, value);
    if (next.reason === 'full') toast.error(`最多只能选择${LIMITS.tags}个标签`);
    if (next.ok) setTags([...tags, next.tag]);
    if (next.ok || next.reason === 'duplicate') setText('');
  };
  const suggestions = focused ? tagSuggestions((known.data ?? []).map((tag) => tag.name), tags, text) : [];
  return (
    <div className="tag-input">
      <div className="tag-field">
        {tags.map((tag) => (
          <span key={tag} className="chip active">
            #{tag}
            <button type="button" aria-label={`移除标签 ${tag}`} onClick={() => setTags(tags.filter((each) => each !== tag))}>
              ×
            </button>
          </span>
        ))}
        <input
          value={text}
          maxLength={LIMITS.tagLength}
          placeholder={tags.length >= LIMITS.tags ? '标签已满' : '输入标签，回车添加'}
          aria-label="添加标签"
          onChange={(event) => {
            const value = event.target.value;
            if (value.endsWith(',') || value.endsWith('，')) add(value.slice(0, -1));
            else setText(value);
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setTimeout(() => setFocused(false), 150)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add(text);
            }
          }}
        />
        <button type="button" className="button ghost small" disabled={!state.ok} onClick={() => add(text)}>
          添加
        </button>
      </div>
      {suggestions.length > 0 && (
        <ul className="tag-suggestions" aria-label="标签建议">
          {suggestions.map((name) => (
            <li key={name}>
              <button type="button" className="chip" onMouseDown={(event) => event.preventDefault()} onClick={() => add(name)}>
                #{name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">
        {tags.length}/{LIMITS.tags}
      </p>
    </div>
  );
}

