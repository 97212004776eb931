import { type TouchEvent, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../../../components/Icon';
import { dropSrcSet, srcSetOf } from '../../../components/LazyImage';
import { lockedAxis, SWIPE_PX } from '../hooks/useGallerySwipe';

/** Whether keyboard input belongs to a text field (arrow keys then move the caret, not the images). */
export function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || element.isContentEditable));
}

/** The full-screen image viewer: counter, buttons, Escape, arrow keys, swipe, backdrop click; neighbours preloaded. */
export function ImageViewer({ images, index, onIndex, onClose }: { images: string[]; index: number; onIndex: (index: number) => void; onClose: () => void }) {
  const touch = useRef<{ x: number; y: number; axis: 'x' | 'y' | null } | null>(null);
  const count = images.length;
  const go = (step: number) => onIndex((index + step + count) % count);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopImmediatePropagation();
        onClose();
      } else if (!typing(event.target) && count > 1 && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
        event.stopImmediatePropagation();
        onIndex((index + (event.key === 'ArrowLeft' ? -1 : 1) + count) % count);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [index, count, onIndex, onClose]);

  useEffect(() => {
    for (const neighbour of [index - 1, index + 1]) if (count > 1) new Image().src = images[(neighbour + count) % count];
  }, [index, count, images]);

  const start = (event: TouchEvent) => {
    touch.current = { x: event.touches[0].clientX, y: event.touches[0].clientY, axis: null };
  };
  // As in the note's gallery: a move counts as a swipe only once it has locked to horizontal past 10 px.
  const move = (event: TouchEvent) => {
    const from = touch.current;
    if (from) from.axis ??= lockedAxis(event.touches[0].clientX - from.x, event.touches[0].clientY - from.y);
  };
  const end = (event: TouchEvent) => {
    const from = touch.current;
    touch.current = null;
    if (!from || count < 2) return;
    const dx = event.changedTouches[0].clientX - from.x;
    const axis = from.axis ?? lockedAxis(dx, event.changedTouches[0].clientY - from.y);
    if (axis === 'x' && Math.abs(dx) > SWIPE_PX) go(dx < 0 ? 1 : -1);
  };

  return createPortal(
    <div className="viewer" role="dialog" aria-label="图片查看" onClick={(event) => event.target === event.currentTarget && onClose()} onTouchStart={start} onTouchMove={move} onTouchEnd={end}>
      <img className="viewer-image" src={images[index]} srcSet={srcSetOf(images[index], true)} sizes="100vw" onError={dropSrcSet} alt={`图片 ${index + 1}`} draggable={false} />
      {count > 1 && (
        <>
          <span className="viewer-counter">
            {index + 1} / {count}
          </span>
          <button type="button" className="viewer-nav prev" aria-label="上一张" onClick={() => go(-1)}>
            <Icon name="left" size={26} />
          </button>
          <button type="button" className="viewer-nav next" aria-label="下一张" onClick={() => go(1)}>
            <Icon name="right" size={26} />
          </button>
        </>
      )}
      <button type="button" className="viewer-close" aria-label="关闭图片查看" onClick={onClose}>
        <Icon name="close" size={24} />
      </button>
    </div>,
    document.body,
  );
}
