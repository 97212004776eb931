import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { toast } from '../../../lib/toast';
import { tagsQuery } from '../api/publish';
import { LIMITS, tagState, tagSuggestions } from '../publish-rules';

/**
 * A note's tags: typed (a comma adds what was typed), suggested from the known tags while typing, removable, ten at
 * most. The input is a combobox: the first suggestion (or the one matching exactly) is highlighted, ↑/↓ move the
 * highlight (above the first, none: Enter then adds the text as typed) and Enter adds the highlighted one.
 */
export function TagInput({ tags, setTags }: { tags: string[]; setTags: (next: string[]) => void }) {
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const [highlight, setHighlight] = useState<number | null>(null);
  const listId = useId();
  const known = useQuery(tagsQuery());
  const state = tagState(tags, text);
  const add = (value: string) => {
    const next = tagState(tags, value);
    if (next.reason === 'full') toast.error(`最多只能选择${LIMITS.tags}个标签`);
    if (next.ok) setTags([...tags, next.tag]);
    if (next.ok || next.reason === 'duplicate') type('');
  };
  const type = (value: string) => {
    setText(value);
    setHighlight(null);
  };
  const suggestions = focused ? tagSuggestions((known.data ?? []).map((tag) => tag.name), tags, text) : [];
  const exact = suggestions.findIndex((name) => name.toLowerCase() === text.trim().toLowerCase());
  const active = text.trim() && suggestions.length > 0 ? Math.min(highlight ?? Math.max(exact, 0), suggestions.length - 1) : -1;
  const optionId = (index: number) => `${listId}-${index}`;
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
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={suggestions.length > 0}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          onChange={(event) => {
            const value = event.target.value;
            if (value.endsWith(',') || value.endsWith('，')) add(value.slice(0, -1));
            else type(value);
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setTimeout(() => setFocused(false), 150)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add(active >= 0 ? suggestions[active] : text);
            } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && text.trim() && suggestions.length > 0) {
              event.preventDefault();
              const step = event.key === 'ArrowDown' ? 1 : -1;
              setHighlight(Math.min(Math.max(active + step, -1), suggestions.length - 1));
            }
          }}
        />
        <button type="button" className="button ghost small" disabled={!state.ok} onClick={() => add(text)}>
          添加
        </button>
      </div>
      {suggestions.length > 0 && (
        <ul className="tag-suggestions" id={listId} role="listbox" aria-label="标签建议">
          {suggestions.map((name, index) => (
            <li key={name} id={optionId(index)} role="option" aria-selected={index === active} className={`chip ${index === active ? 'highlighted' : ''}`} onMouseDown={(event) => event.preventDefault()} onClick={() => add(name)}>
              #{name}
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

