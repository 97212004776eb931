import { decode } from 'blurhash';
import { type SyntheticEvent, useEffect, useRef, useState } from 'react';
import { NOTE_PLACEHOLDER } from '../lib/api/client';
import { imageQueue, LAZY_IMAGES } from './image-queue';

const decoded = new Map<string, string>();
/** The widths the media service keeps of each still image (SHOWN_WIDTHS in libs/media), named `<key>.w<width>.webp`. */
const SHOWN_WIDTHS = [400, 800];
/** What the display version (the URL the API hands out) is taken to be wide: at most 1200 px on its longer side. */
const DISPLAY_WIDTH = 1200;

/**
 * The `srcset` of a stored still image: its kept widths, and the display version itself for wider needs when
 * `withDisplay`. Undefined for anything else (an animated GIF, a thumbnail, a URL from elsewhere).
 */
export function srcSetOf(url: string | null | undefined, withDisplay = false): string | undefined {
  if (!url?.startsWith('/api/files/') || !/\.(jpe?g|png|webp)$/i.test(url) || /\.(thumb|w\d+)\.webp$/.test(url)) return undefined;
  const base = url.replace(/\.[^./]+$/, '');
  const widths = SHOWN_WIDTHS.map((width) => `${base}.w${width}.webp ${width}w`);
  return [...widths, ...(withDisplay ? [`${url} ${DISPLAY_WIDTH}w`] : [])].join(', ');
}

/** An image whose kept widths are not there (yet: the backfill makes them) falls back to its `src`. */
export function dropSrcSet(event: SyntheticEvent<HTMLImageElement>): void {
  if (event.currentTarget.hasAttribute('srcset')) event.currentTarget.removeAttribute('srcset');
}

/** A blurhash as a tiny data URL, decoded once per hash. */
function blurUrl(hash: string): string | null {
  const known = decoded.get(hash);
  if (known) return known;
  try {
    const pixels = decode(hash, 24, 24);
    const canvas = document.createElement('canvas');
    canvas.width = 24;
    canvas.height = 24;
    const context = canvas.getContext('2d');
    if (!context) return null;
    const image = context.createImageData(24, 24);
    image.data.set(pixels);
    context.putImageData(image, 0, 0);
    const url = canvas.toDataURL();
    decoded.set(hash, url);
    return url;
  } catch {
    return null;
  }
}

/**
 * An image that loads when it nears the viewport, over a placeholder that already takes its space: the blurhash
 * when there is one, else a soft colour. A broken or timed-out image shows the note placeholder. An eager one (the
 * first screen's) is requested at once and ahead of other images, and shows as soon as it is decoded rather than
 * fading in after React hears of its load: it is what the largest contentful paint waits for. With `srcSet` and
 * `sizes` the browser takes the width the image is shown at; if that width is missing it falls back to `src`.
 * The others wait for a slot of the shared queue (4 at once) and give up after `timeoutMs` of loading.
 */
export function LazyImage({
  src,
  srcSet,
  sizes,
  alt,
  blurhash,
  className = '',
  eager = false,
  timeoutMs = LAZY_IMAGES.timeoutMs,
}: {
  src: string;
  srcSet?: string;
  sizes?: string;
  alt: string;
  blurhash?: string | null;
  className?: string;
  eager?: boolean;
  timeoutMs?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(eager);
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const [failure, setFailure] = useState('图片加载失败');
  const [attempt, setAttempt] = useState(0);
  const [plain, setPlain] = useState(false);
  // The attempt that holds a slot of the queue; an eager image needs none.
  const [slotFor, setSlotFor] = useState(-1);
  const started = eager || slotFor === attempt;
  const placeholder = blurhash ? blurUrl(blurhash) : null;

  useEffect(() => {
    if (visible || !box.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setVisible(true), { rootMargin: `${LAZY_IMAGES.marginPx}px 0px` });
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [visible]);

  // The slot is held while this attempt loads and given back when it loads, fails, times out or the image goes.
  useEffect(() => {
    if (eager || !visible || state !== 'loading') return;
    return imageQueue.request(() => setSlotFor(attempt));
  }, [eager, visible, state, attempt]);

  useEffect(() => {
    if (!visible || !started || state !== 'loading') return;
    const timer = setTimeout(() => {
      setFailure('图片加载超时');
      setState('failed');
    }, timeoutMs);
    return () => clearTimeout(timer);
  }, [visible, started, state, attempt, timeoutMs]);

  // A timed-out image is tried again later (a slow network may have recovered); a broken one is not.
  useEffect(() => {
    if (state !== 'failed' || failure !== '图片加载超时') return;
    const timer = setTimeout(() => {
      setAttempt((value) => value + 1);
      setState('loading');
    }, LAZY_IMAGES.recheckMs);
    return () => clearTimeout(timer);
  }, [state, failure]);

  return (
    <div ref={box} className={`lazy-image ${state} ${eager ? 'eager' : ''} ${className}`} style={placeholder ? { backgroundImage: `url(${placeholder})` } : undefined}>
      {visible && started && state !== 'failed' && (
        <img
          key={`${attempt}${plain}`}
          src={src}
          srcSet={plain ? undefined : srcSet}
          sizes={plain ? undefined : sizes}
          alt={alt}
          decoding={eager ? 'auto' : 'async'}
          fetchPriority={eager ? 'high' : undefined}
          onLoad={() => setState('loaded')}
          onError={() => (srcSet && !plain ? setPlain(true) : setState('failed'))}
          draggable={false}
        />
      )}
      {state === 'failed' && <img src={NOTE_PLACEHOLDER} alt={failure} className="fallback" />}
    </div>
  );
}
