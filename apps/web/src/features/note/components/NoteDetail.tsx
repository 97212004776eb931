import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Avatar } from '../../../components/Avatar';
import { FollowButton } from '../../../components/FollowButton';
import { UserHover } from '../../../components/HoverCard';
import { Icon, VerifiedBadge } from '../../../components/Icon';
import { dropSrcSet, srcSetOf } from '../../../components/LazyImage';
import { useCollect } from '../../../hooks/useCollect';
import { useLike } from '../../../hooks/useLike';
import type { Note } from '../../../lib/api/client';
import { followStatusQuery } from '../../../lib/api/people';
import { formatCount, relativeTime } from '../../../lib/format';
import { renderMentions } from '../../../lib/rich-text';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { noteLikeView } from '../../../lib/api/notes';
import { noteCollectView } from '../api/note';
import { useComments } from '../hooks/useComments';
import { useGallerySwipe } from '../hooks/useGallerySwipe';
import { CommentList, Composer } from './Comments';
import { ImageViewer, typing } from './ImageViewer';

/** How wide the gallery is shown: the whole phone screen, or the overlay's media column. */
const GALLERY_SIZES = '(max-width: 768px) 100vw, 760px';

function Gallery({ note, ready, index, setIndex, onOpen }: { note: Note; ready: boolean; index: number; setIndex: (index: number) => void; onOpen: () => void }) {
  const images = note.images.length > 0 ? note.images : note.image ? [note.image] : [];
  const ratio = note.aspectRatio && note.aspectRatio > 0 ? Math.min(Math.max(1 / note.aspectRatio, 0.75), 1.34) : 1.33;
  const swipe = useGallerySwipe(images.length, index, setIndex);
  if (note.type === 2 && note.video_url) {
    return (
      <div className="gallery video">
        <video src={note.video_url} poster={note.cover_url ?? undefined} controls playsInline preload="metadata" />
      </div>
    );
  }
  // The image shown and its neighbours, each once, at their place on the track; with two images the other one sits
  // on the side the finger is pulling from.
  const slides = new Map<number, number>([[index, 0]]);
  if (images.length > 1) {
    const before = (index - 1 + images.length) % images.length;
    const after = (index + 1) % images.length;
    if (images.length === 2) slides.set(after, swipe.offset > 0 ? -1 : 1);
    else slides.set(before, -1).set(after, 1);
  }
  return (
    <div className="gallery" ref={swipe.frame} style={{ '--ratio': `1 / ${ratio}` } as React.CSSProperties} {...swipe.handlers}>
      {ready && images.length > 0 && (
        <div className={`gallery-track ${swipe.settling ? 'settling' : ''}`} style={{ transform: `translateX(${swipe.offset}px)` }}>
          {[...slides].map(([slide, place]) => (
            <img
              key={slide}
              className={slide === index ? 'gallery-slide gallery-image' : 'gallery-slide'}
              style={{ left: `${place * 100}%` }}
              src={images[slide]}
              srcSet={srcSetOf(images[slide], true)}
              sizes={GALLERY_SIZES}
              onError={dropSrcSet}
              alt={`${note.title} 第${slide + 1}张`}
              aria-hidden={slide !== index}
              onClick={slide === index ? onOpen : undefined}
              draggable={false}
            />
          ))}
        </div>
      )}
      {images.length > 1 && (
        <>
          <button type="button" className="gallery-nav prev" aria-label="上一张" onClick={swipe.previous}>
            <Icon name="left" size={20} />
          </button>
          <button type="button" className="gallery-nav next" aria-label="下一张" onClick={swipe.next}>
            <Icon name="right" size={20} />
          </button>
          <div className="gallery-dots">
            {images.map((src, dot) => (
              <button key={src + dot} type="button" className={`gallery-dot ${dot === index ? 'active' : ''}`} aria-label={`第${dot + 1}张`} aria-current={dot === index} onClick={() => setIndex(dot)} />
            ))}
          </div>
          <span className="gallery-counter">
            {index + 1}/{images.length}
          </span>
        </>
      )}
    </div>
  );
}

/** An action's name as a screen reader says it: the word, and the count the button shows in its place. */
const labelWithCount = (word: string, count: number) => (count > 0 ? `${word} ${formatCount(count)}` : word);

/**
 * The note detail card, shared by the overlay and the full page: gallery (with viewer), author, text with
 * mentions and tags, like / collect / share, comments; keyboard shortcuts ←/→, Esc, S, D.
 */
export function NoteDetail({ note, ready, onClose, targetCommentId }: { note: Note; ready: boolean; onClose?: () => void; targetCommentId: number | null }) {
  const [index, setIndex] = useState(0);
  const [viewer, setViewer] = useState(false);
  const client = useQueryClient();
  const like = { active: note.liked, count: note.likeCount ?? note.like_count };
  const collect = { active: note.collected, count: note.collectCount ?? note.collect_count };
  const [commentCount, setCommentCount] = useState(note.commentCount ?? note.comment_count);
  const [bump, setBump] = useState<'like' | 'collect' | null>(null);
  const comments = useComments(note.id, targetCommentId, (delta) => setCommentCount((value) => Math.max(0, value + delta)));
  const images = note.images.length > 0 ? note.images : note.image ? [note.image] : [];
  const failed = () => toast.error('操作失败，请重试');
  const sendLike = useLike({
    view: noteLikeView(client),
    targetOf: (id) => ({ target_type: 1, target_id: id }),
    onDone: ({ active }) => toast.success(active ? '点赞成功' : '已取消点赞'),
    onFailed: failed,
  });
  const sendCollect = useCollect({
    view: noteCollectView(client),
    noteIdOf: (id) => id,
    onDone: ({ active }) => toast.success(active ? '收藏成功' : '已取消收藏'),
    onFailed: failed,
  });

  const toggleLike = () => {
    const wasActive = like.active;
    if (sendLike(note.id)) setBump(wasActive ? null : 'like');
  };

  const toggleCollect = () => {
    const wasActive = collect.active;
    if (sendCollect(note.id)) setBump(wasActive ? null : 'collect');
  };

  const share = async () => {
    try {
      await navigator.clipboard.writeText(`${location.origin}/post?id=${note.id}`);
      toast.success('链接已复制，快去分享给好友吧');
    } catch {
      toast.error('复制失败，请重试');
    }
  };

  const handlers = useRef({ toggleLike, toggleCollect, onClose });
  handlers.current = { toggleLike, toggleCollect, onClose };
  useEffect(() => {
    if (viewer) return;
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.metaKey || event.ctrlKey || event.altKey || document.querySelector('.modal-backdrop')) return;
      if (event.key === 'Escape' && handlers.current.onClose) handlers.current.onClose();
      else if (event.key === 'ArrowLeft' && images.length > 1) setIndex((value) => (value - 1 + images.length) % images.length);
      else if (event.key === 'ArrowRight' && images.length > 1) setIndex((value) => (value + 1) % images.length);
      else if (event.key === 'd' || event.key === 'D') handlers.current.toggleLike();
      else if (event.key === 's' || event.key === 'S') handlers.current.toggleCollect();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [viewer, images.length]);

  const author = note.nickname || note.author || '匿名用户';
  const actions = (
    <>
      <button type="button" className={`action like ${like.active ? 'on' : ''} ${bump === 'like' ? 'bump' : ''}`} aria-pressed={like.active} aria-label={labelWithCount('点赞', like.count)} onClick={toggleLike}>
        <Icon name="heart" filled={like.active} />
        {like.count > 0 ? <span>{formatCount(like.count)}</span> : <span className="action-word">点赞</span>}
      </button>
      <button type="button" className={`action collect ${collect.active ? 'on' : ''} ${bump === 'collect' ? 'bump' : ''}`} aria-pressed={collect.active} aria-label={labelWithCount('收藏', collect.count)} onClick={toggleCollect}>
        <Icon name="star" filled={collect.active} />
        {collect.count > 0 ? <span>{formatCount(collect.count)}</span> : <span className="action-word">收藏</span>}
      </button>
      <span className="action" aria-label="评论数">
        <Icon name="comment" />
        {commentCount > 0 ? <span>{formatCount(commentCount)}</span> : <span className="action-word">评论</span>}
      </span>
      <button type="button" className="action" aria-label="分享" onClick={() => void share()}>
        <Icon name="share" />
      </button>
    </>
  );

  return (
    <article className="detail">
      <div className="detail-media">
        <Gallery note={note} ready={ready} index={Math.min(index, Math.max(0, images.length - 1))} setIndex={setIndex} onOpen={() => setViewer(true)} />
      </div>
      <div className="detail-side">
        <header className="detail-author">
          <UserHover userId={note.user_id}>
            <a href={`/user/${note.user_id}`} target="_blank" rel="noreferrer" className="detail-author-link">
              <Avatar src={note.user_avatar || note.avatar} size={36} />
              <span>{author}</span>
              <VerifiedBadge level={note.author_verified ?? note.verified} />
            </a>
          </UserHover>
          <AuthorFollow userId={note.user_id} />
        </header>
        <div className="detail-scroll">
          <h1 className="detail-title">{note.title}</h1>
          <div className="detail-content" dangerouslySetInnerHTML={{ __html: renderMentions(note.content) }} />
          {note.tags.length > 0 && (
            <p className="detail-tags">
              {note.tags.map((tag) => (
                <a key={tag.id} href={`/search_result?tag=${encodeURIComponent(tag.name)}`} target="_blank" rel="noreferrer">
                  #{tag.name}
                </a>
              ))}
            </p>
          )}
          <p className="detail-meta">
            <span>{relativeTime(note.created_at)}</span>
            {note.location && (
              <span>
                <Icon name="location" size={13} />
                {note.location}
              </span>
            )}
          </p>
          <CommentList state={comments} count={commentCount} />
        </div>
        <footer className="detail-footer">
          <Composer state={comments} actions={actions} />
        </footer>
      </div>
      {viewer && images.length > 0 && <ImageViewer images={images} index={index} onIndex={setIndex} onClose={() => setViewer(false)} />}
      {onClose && (
        <button type="button" className="detail-close" aria-label="关闭" onClick={onClose}>
          <Icon name="close" size={20} />
        </button>
      )}
    </article>
  );
}

function AuthorFollow({ userId }: { userId: string }) {
  const me = useSession((state) => state.user?.user_id);
  const status = useQuery({ ...followStatusQuery(userId, me ?? null), enabled: Boolean(me) && me !== userId });
  if (me === userId) return null;
  const state = !me || status.isError ? 'follow' : status.data?.buttonType;
  if (!state) return null;
  return <FollowButton userId={userId} initial={state} size="small" />;
}
