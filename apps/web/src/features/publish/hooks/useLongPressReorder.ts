import { type RefObject, useEffect, useRef } from 'react';
import { LONG_PRESS, moveItem } from '../publish-rules';
import type { ImageItem } from '../publish-form';

/**
 * Touch reordering: a press held 300 ms without moving 10 px picks the image up (with a short vibration), then it
 * follows the finger over the others; moving earlier is a scroll and cancels the press.
 */
export function useLongPressReorder(grid: RefObject<HTMLDivElement | null>, images: ImageItem[], setImages: (next: ImageItem[]) => void, setDragging: (id: string | null) => void) {
  const latest = useRef({ images, setImages, setDragging });
  latest.current = { images, setImages, setDragging };
  useEffect(() => {
    const element = grid.current;
    if (!element) return;
    let press: { id: string; x: number; y: number; timer: ReturnType<typeof setTimeout> | null; active: boolean } | null = null;
    const itemAt = (x: number, y: number) => document.elementFromPoint(x, y)?.closest<HTMLElement>('.upload-item')?.dataset.id;
    const stop = () => {
      if (press?.timer) clearTimeout(press.timer);
      if (press?.active) latest.current.setDragging(null);
      press = null;
    };
    const start = (event: TouchEvent) => {
      const id = (event.target as HTMLElement).closest<HTMLElement>('.upload-item')?.dataset.id;
      const touch = event.touches[0];
      if (!id || !touch || event.touches.length > 1 || (event.target as HTMLElement).closest('button')) return;
      const current = { id, x: touch.clientX, y: touch.clientY, timer: null as ReturnType<typeof setTimeout> | null, active: false };
      current.timer = setTimeout(() => {
        current.active = true;
        current.timer = null;
        latest.current.setDragging(id);
        navigator.vibrate?.(30);
      }, LONG_PRESS.ms);
      press = current;
    };
    const move = (event: TouchEvent) => {
      const touch = event.touches[0];
      if (!press || !touch) return;
      if (!press.active) {
        if (Math.hypot(touch.clientX - press.x, touch.clientY - press.y) > LONG_PRESS.slop) stop();
        return;
      }
      event.preventDefault();
      const over = itemAt(touch.clientX, touch.clientY);
      if (over && over !== press.id) latest.current.setImages(moveItem(latest.current.images, press.id, over));
    };
    const contextMenu = (event: Event) => {
      if (press) event.preventDefault();
    };
    element.addEventListener('touchstart', start, { passive: true });
    // Not passive: once an image is picked up the page must not scroll under the finger.
    element.addEventListener('touchmove', move, { passive: false });
    element.addEventListener('touchend', stop);
    element.addEventListener('touchcancel', stop);
    element.addEventListener('contextmenu', contextMenu);
    return () => {
      stop();
      element.removeEventListener('touchstart', start);
      element.removeEventListener('touchmove', move);
      element.removeEventListener('touchend', stop);
      element.removeEventListener('touchcancel', stop);
      element.removeEventListener('contextmenu', contextMenu);
    };
  }, [grid]);
}

