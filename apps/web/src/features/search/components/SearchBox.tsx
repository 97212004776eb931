import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Icon } from '../../../components/Icon';
import type { components } from '../../../lib/api/schema.d';
import { suggestQuery } from '../api/search';
import { addToHistory, readHistory, removeFromHistory, writeHistory } from '../search-history';

/** Suggestions wait for a pause in typing. */
const SUGGEST_DEBOUNCE_MS = 200;

type Suggestion = components['schemas']['SuggestionView'];

const KIND_LABEL = { tag: '标签', user: '用户', post: '笔记' } as const;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The header's search box (public-side.md §2, §4): a panel opens on focus with the history (five, latest first,
 * an edit mode to delete) or, while typing, live suggestions; it closes on submit, outside click or Escape.
 * Submitting records a non-empty keyword and goes to the results page (without keyword when empty). On the results
 * page the box shows what is searched, however the page was reached (a link, history, another tab).
 */
export function SearchBox({ onDone, autoFocus = false }: { onDone?: () => void; autoFocus?: boolean }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [history, setHistory] = useState(readHistory);
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const box = useRef<HTMLFormElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const keyword = useDebounced(text.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = useQuery({ ...suggestQuery(keyword), enabled: open && keyword.length > 0 });

  useEffect(() => {
    if (!pathname.startsWith('/search_result')) return;
    const query = new URLSearchParams(search);
    setText(query.get('keyword') ?? query.get('tag') ?? '');
  }, [pathname, search]);

  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) {
        setOpen(false);
        setEditing(false);
      }
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);

  const go = (word: string, tag?: string) => {
    const keywordText = word.trim();
    if (keywordText) {
      const next = addToHistory(history, keywordText);
      setHistory(next);
      writeHistory(next);
    }
    const query = tag ? `?tag=${encodeURIComponent(tag)}` : keywordText ? `?keyword=${encodeURIComponent(keywordText)}` : '';
    void navigate(`/search_result/all${query}`);
    setText(tag ?? keywordText);
    setOpen(false);
    setEditing(false);
    input.current?.blur();
    onDone?.();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    go(text);
  };

  /** A tag suggestion searches by tag, a user one opens the profile, a title one searches its text. */
  const pick = (item: Suggestion) => {
    if (item.kind === 'tag') go('', item.text);
    else if (item.kind === 'user' && item.target) {
      void navigate(`/user/${item.target}`);
      setOpen(false);
      onDone?.();
    } else go(item.text);
  };

  const remove = (word: string) => {
    const next = removeFromHistory(history, word);
    setHistory(next);
    writeHistory(next);
    if (next.length === 0) setEditing(false);
  };

  const typed = text.trim();
  const list = suggestions.data?.suggestions ?? [];
  const showHistory = !typed && history.length > 0;
  const showSuggestions = typed.length > 0 && list.length > 0;
  return (
    <form ref={box} className="search-box" role="search" onSubmit={submit}>
      <input
        ref={input}
        value={text}
        autoFocus={autoFocus}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setOpen(false);
            input.current?.blur();
          }
        }}
        placeholder="搜索拾柳"
        aria-label="搜索拾柳"
        enterKeyHint="search"
        autoComplete="off"
      />
      {text && (
        <button
          type="button"
          className="search-clear"
          aria-label="清除"
          onClick={() => {
            setText('');
            setOpen(true);
            input.current?.focus();
          }}
        >
          <Icon name="close" size={14} />
        </button>
      )}
      <button type="submit" className="search-submit" aria-label="搜索">
        <Icon name="search" size={18} />
      </button>
      {open && (showHistory || showSuggestions) && (
        <div className="search-panel">
          {showHistory && (
            <section aria-label="搜索历史">
              <div className="search-panel-head">
                <span>搜索历史</span>
                <button type="button" className="text-button" onClick={() => setEditing(!editing)}>
                  {editing ? '完成' : '编辑'}
                </button>
              </div>
              <ul className="history-chips">
                {history.map((word) => (
                  <li key={word}>
                    {editing ? (
                      <button type="button" className="chip editing" onClick={() => remove(word)} aria-label={`删除 ${word}`}>
                        {word}
                        <Icon name="close" size={12} />
                      </button>
                    ) : (
                      <button type="button" className="chip" onClick={() => go(word)}>
                        {word}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {showSuggestions && (
            <ul className="suggest-list" aria-label="搜索建议">
              {list.map((item) => (
                <li key={`${item.kind}:${item.text}`}>
                  <button type="button" className="suggest-item" onClick={() => pick(item)}>
                    <Icon name={item.kind === 'user' ? 'user' : item.kind === 'tag' ? 'star' : 'search'} size={15} />
                    <span className="suggest-text">{item.kind === 'tag' ? `#${item.text}` : item.text}</span>
                    <span className="suggest-kind">{KIND_LABEL[item.kind]}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </form>
  );
}
