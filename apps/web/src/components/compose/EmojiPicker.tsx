import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../Icon';
import { EMOJI_GROUPS, type EmojiGroupId, searchEmojis, SKIN_TONES, withTone } from './emoji-data';
import { loadRecent, rememberEmoji } from './recent-emojis';

const GROUP_ICONS: Record<EmojiGroupId, string> = { recent: '🕘', smileys_people: '😀', animals_nature: '🐶', food_drink: '🍔', activities: '⚽', travel_places: '🚗', objects: '💡', symbols: '❤️', flags: '🏁' };
const TONE_KEY = 'emoji-skin-tone';
/** The picker sits this far from its button (public-side.md §9). */
const OFFSET = 6;
const WIDTH = 336;
const HEIGHT = 380;

/** On a phone, focusing the search box would raise the keyboard over the emojis one came for. */
function touchFirst(): boolean {
  return window.matchMedia('(pointer: coarse)').matches;
}

/** Where the panel goes: under the button if it fits, else above; kept inside the window. */
function place(anchor: DOMRect): { left: number; top: number } {
  const left = Math.min(Math.max(8, anchor.left), window.innerWidth - WIDTH - 8);
  const below = anchor.bottom + OFFSET;
  const top = below + HEIGHT <= window.innerHeight - 8 ? below : Math.max(8, anchor.top - OFFSET - HEIGHT);
  return { left: Math.max(8, left), top };
}

/**
 * The emoji picker (public-side.md §3): 最近使用 and the eight groups, search by name, six skin tones, the recent 24
 * kept in IndexedDB; it follows the app's light or dark theme. Picking inserts without closing, so several fit.
 */
export function EmojiPicker({ anchor, onPick, onClose }: { anchor: HTMLElement; onPick: (emoji: string) => void; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [recent, setRecent] = useState<string[]>([]);
  const [words, setWords] = useState('');
  const [tone, setTone] = useState(() => localStorage.getItem(TONE_KEY) ?? '');
  const [toning, setToning] = useState(false);
  const [active, setActive] = useState<EmojiGroupId>('smileys_people');
  const [position, setPosition] = useState(() => place(anchor.getBoundingClientRect()));

  useEffect(() => {
    let live = true;
    void loadRecent().then((list) => {
      if (!live) return;
      setRecent(list);
      if (list.length > 0) setActive('recent');
    });
    return () => {
      live = false;
    };
  }, []);

  useLayoutEffect(() => {
    const follow = () => setPosition(place(anchor.getBoundingClientRect()));
    window.addEventListener('resize', follow);
    window.addEventListener('scroll', follow, true);
    return () => {
      window.removeEventListener('resize', follow);
      window.removeEventListener('scroll', follow, true);
    };
  }, [anchor]);

  useEffect(() => {
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !anchor.contains(target)) onClose();
    };
    const key = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onClose();
        anchor.focus();
      }
    };
    document.addEventListener('pointerdown', outside);
    window.addEventListener('keydown', key, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      window.removeEventListener('keydown', key, true);
    };
  }, [anchor, onClose]);

  const pick = (emoji: string) => {
    onPick(emoji);
    void rememberEmoji(recent, emoji).then(setRecent);
  };

  const chooseTone = (next: string) => {
    setTone(next);
    setToning(false);
    localStorage.setItem(TONE_KEY, next);
  };

  const jump = (id: EmojiGroupId) => {
    setWords('');
    setActive(id);
    requestAnimationFrame(() => body.current?.querySelector(`[data-group="${id}"]`)?.scrollIntoView({ block: 'start' }));
  };

  const onScroll = () => {
    const top = body.current?.scrollTop ?? 0;
    const sections = [...(body.current?.querySelectorAll<HTMLElement>('[data-group]') ?? [])];
    const current = sections.filter((section) => section.offsetTop - 4 <= top).pop();
    if (current) setActive(current.dataset.group as EmojiGroupId);
  };

  const found = words.trim() ? searchEmojis(words) : null;
  const groups = [...(recent.length > 0 ? [{ id: 'recent' as const, label: '最近使用', items: recent.map((char) => ({ char, name: char })) }] : []), ...EMOJI_GROUPS.map((group) => ({ id: group.id, label: group.label, items: group.emojis.map((emoji) => ({ char: withTone(emoji, tone), name: emoji.name })) }))];

  return createPortal(
    <div ref={panel} className="emoji-picker" role="dialog" aria-label="选择表情" style={{ left: position.left, top: position.top }}>
      <nav className="emoji-groups" aria-label="表情分组">
        {groups.map((group) => (
          <button key={group.id} type="button" className={active === group.id && !found ? 'active' : ''} aria-label={group.label} title={group.label} onClick={() => jump(group.id)}>
            {GROUP_ICONS[group.id]}
          </button>
        ))}
      </nav>
      <div className="emoji-search">
        <Icon name="search" size={16} />
        <input value={words} onChange={(event) => setWords(event.target.value)} placeholder="搜索表情" aria-label="搜索表情" autoFocus={!touchFirst()} />
        <div className="emoji-tones">
          <button type="button" className="emoji-tone-current" aria-label="选择肤色" aria-expanded={toning} onClick={() => setToning(!toning)}>
            {'👋' + tone}
          </button>
          {toning && (
            <div className="emoji-tone-list" role="listbox" aria-label="肤色">
              {SKIN_TONES.map((each, index) => (
                <button key={index} type="button" role="option" aria-selected={tone === each} aria-label={`肤色 ${index + 1}`} onClick={() => chooseTone(each)}>
                  {'👋' + each}
                </button>
              ))}
            </div>
          )}
        </div>
      </div>
      <div ref={body} className="emoji-body" onScroll={onScroll}>
        {found ? (
          found.length === 0 ? (
            <p className="emoji-empty">没有找到相关表情</p>
          ) : (
            <div className="emoji-grid">
              {found.map((emoji) => (
                <button key={emoji.char} type="button" className="emoji" title={emoji.name} aria-label={emoji.name} onClick={() => pick(withTone(emoji, tone))}>
                  {withTone(emoji, tone)}
                </button>
              ))}
            </div>
          )
        ) : (
          groups.map((group) => (
            <section key={group.id} data-group={group.id}>
              <h4 className="emoji-group-title">{group.label}</h4>
              <div className="emoji-grid">
                {group.items.map((item, index) => (
                  <button key={item.char + index} type="button" className="emoji" title={item.name} aria-label={item.name} onClick={() => pick(item.char)}>
                    {item.char}
                  </button>
                ))}
              </div>
            </section>
          ))
        )}
      </div>
    </div>,
    document.body,
  );
}
