import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { BackToTop } from '../../../components/BackToTop';
import { EmptyState, Skeleton, Spinner } from '../../../components/Feedback';
import { Icon } from '../../../components/Icon';
import { cardHeight, NoteCard } from '../../../components/NoteCard';
import { FIRST_SCREEN, Waterfall } from '../../../components/Waterfall';
import { channelPath, FOLLOWING, RECOMMEND, useChannels } from '../../../hooks/useChannels';
import { exploreFeedKey, useFeed } from '../../../hooks/useFeed';
import { useOpenNote } from '../../../hooks/useOpenNote';
import { useScrolledPast } from '../../../hooks/useScrolledPast';
import { createChannelSwitcher } from '../../../lib/channel-switch';
import { ChannelStrip } from './ChannelStrip';
import { FollowingEmpty } from './FollowingEmpty';

/** The fixed channel strip shows from this scroll depth; spinners last 700 ms (public-side.md §9). */
const FIXED_STRIP_PX = 100;
const SPIN_MS = 700;

/** The explore page: channels, the waterfall feed with infinite scroll, and the floating buttons. */
export default function ExplorePage() {
  const { channel: param } = useParams();
  const { channels, ready } = useChannels();
  const active = param ?? RECOMMEND.category_title;
  const navigate = useNavigate();
  const client = useQueryClient();
  const [imageOnly, setImageOnly] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [reloading, setReloading] = useState(false);
  const scrolled = useScrolledPast(FIXED_STRIP_PX);
  const openNote = useOpenNote();
  const activeRef = useRef(active);
  activeRef.current = active;

  const switcher = useMemo(
    () =>
      createChannelSwitcher(
        (channel) => {
          window.scrollTo({ top: 0, behavior: 'instant' });
          setSwitching(true);
          setTimeout(() => setSwitching(false), SPIN_MS);
          void navigate(channelPath(channel));
        },
        () => activeRef.current,
      ),
    [navigate],
  );
  useEffect(() => () => switcher.dispose(), [switcher]);

  useEffect(() => {
    document.title = '发现 - 拾柳';
  }, []);

  const known = channels.some((channel) => channel.category_title === active);
  const feed = useFeed({ kind: 'explore', category: active === RECOMMEND.category_title ? null : active, imageOnly });
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = feed;
  const more = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (param !== undefined && ready && !known) return <Navigate to="/explore" replace />;
  const firstScreen = new Set(feed.notes.slice(0, FIRST_SCREEN).map((note) => note.id));

  const reload = () => {
    setReloading(true);
    window.scrollTo({ top: 0, behavior: 'instant' });
    void client.resetQueries({ queryKey: exploreFeedKey });
    setTimeout(() => setReloading(false), SPIN_MS);
  };

  const strip = <ChannelStrip channels={channels} active={active} onPick={switcher.pick} />;
  return (
    <section className="explore">
      <h1 className="visually-hidden">发现</h1>
      {strip}
      <div className={`channel-fixed ${scrolled ? 'shown' : ''}`} inert={!scrolled}>
        {strip}
      </div>
      {switching && (
        <div className="switch-spinner">
          <Spinner />
        </div>
      )}
      {feed.isPending ? (
        <div className="waterfall skeletons">
          <Skeleton count={FIRST_SCREEN} />
        </div>
      ) : feed.notes.length === 0 && !feed.isError && active === FOLLOWING.category_title ? (
        <FollowingEmpty />
      ) : feed.notes.length === 0 ? (
        <EmptyState text={feed.isError ? '加载失败' : '暂无内容'}>
          {feed.isError && (
            <button type="button" className="button ghost" onClick={() => void feed.refetch()}>
              重新加载
            </button>
          )}
        </EmptyState>
      ) : (
        <Waterfall
          items={feed.notes}
          estimate={cardHeight}
          render={(note) => <NoteCard note={note} onOpen={openNote} eager={firstScreen.has(note.id)} />}
          onEnd={more}
          footer={<div className="feed-end">{isFetchingNextPage ? <Spinner /> : hasNextPage ? null : <span>— 没有更多了 —</span>}</div>}
        />
      )}
      <div className="floating">
        <button type="button" className={`float-button ${imageOnly ? 'on' : ''}`} onClick={() => setImageOnly(!imageOnly)} aria-pressed={imageOnly} title={imageOnly ? '取消只看图文' : '只看图文'}>
          <Icon name="image" size={20} />
          <span className="float-label">{imageOnly ? '取消只看图文' : '只看图文'}</span>
        </button>
        <button type="button" className="float-button" onClick={reload} aria-label="刷新" title="刷新">
          <Icon name="refresh" size={20} className={reloading ? 'spin' : ''} />
        </button>
        {scrolled && <BackToTop />}
      </div>
    </section>
  );
}
