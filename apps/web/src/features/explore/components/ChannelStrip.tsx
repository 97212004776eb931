import { type PointerEvent, useRef } from 'react';
import type { ChannelEntry } from '../../../hooks/useChannels';

/** The channel tabs, scrollable by wheel, touch or mouse drag (a drag does not count as a click). */
export function ChannelStrip({ channels, active, onPick, className = '' }: { channels: ChannelEntry[]; active: string; onPick: (channel: string) => void; className?: string }) {
  const strip = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; scroll: number; moved: boolean } | null>(null);

  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType !== 'mouse' || !strip.current) return;
    drag.current = { x: event.clientX, scroll: strip.current.scrollLeft, moved: false };
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    const state = drag.current;
    if (!state || !strip.current) return;
    const dx = event.clientX - state.x;
    if (Math.abs(dx) > 4) state.moved = true;
    strip.current.scrollLeft = state.scroll - dx;
  };
  const up = () => {
    setTimeout(() => (drag.current = null));
  };

  return (
    <div className={`channel-strip ${className}`} ref={strip} role="tablist" aria-label="频道" onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerLeave={up}>
      {channels.map((channel) => (
        <button
          key={channel.category_title}
          type="button"
          role="tab"
          aria-selected={channel.category_title === active}
          className={`channel ${channel.category_title === active ? 'active' : ''}`}
          onClick={() => !drag.current?.moved && onPick(channel.category_title)}
        >
          {channel.name}
        </button>
      ))}
    </div>
  );
}
