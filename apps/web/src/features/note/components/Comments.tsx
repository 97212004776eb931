import { type ChangeEvent, type KeyboardEvent, lazy, Suspense, useEffect, useReducer, useRef, useState } from 'react';
import { Avatar } from '../../../components/Avatar';
import { Spinner } from '../../../components/Feedback';
import { UserHover } from '../../../components/HoverCard';
import { Icon, VerifiedBadge } from '../../../components/Icon';
import { ConfirmDialog } from '../../../components/Modal';
import { type NoteComment, upload, type UploadedImage } from '../../../lib/api/client';
import { formatCount, relativeTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { encodeMentions, type PickedMentions } from '../../../components/compose/mentions';
import { compressImages } from '../../../lib/images';
import { acceptImages, attachments, commentContent, commentProblem, type CommentImage, isUploading } from '../../../lib/comment-images';
import { ImageViewer } from './ImageViewer';
import { commentBodyHtml } from '../../../lib/rich-text';
import type { CommentsState, ReplyTarget, Thread } from '../hooks/useComments';

const SHOWN_REPLIES = 2;

// The @ and emoji pickers (and the emoji list) load when a composer first opens, not with the note: most readers never write.
const ComposeTools = lazy(() => import('../../../components/compose/ComposeTools').then((module) => ({ default: module.ComposeTools })));

function CommentItem({ comment, state, parentId, onDelete }: { comment: NoteComment; state: CommentsState; parentId: number; onDelete: (comment: NoteComment) => void }) {
  const me = useSession((session) => session.user?.user_id);
  const item = useRef<HTMLDivElement>(null);
  const highlighted = state.highlight === comment.id;
  useEffect(() => {
    if (highlighted) item.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [highlighted]);
  const name = comment.nickname || comment.username || '匿名用户';
  return (
    <div ref={item} className={`comment ${comment.parent_id ? 'reply' : ''} ${highlighted ? 'highlight' : ''}`} id={`comment-${comment.id}`} data-comment-id={comment.id}>
      <UserHover userId={comment.user_id}>
        <a href={`/user/${comment.user_id}`} target="_blank" rel="noreferrer" aria-label={name}>
          <Avatar src={comment.avatar || comment.user_avatar} size={comment.parent_id ? 24 : 32} />
        </a>
      </UserHover>
      <div className="comment-body">
        <div className="comment-name">
          <a href={`/user/${comment.user_id}`} target="_blank" rel="noreferrer">
            {name}
          </a>
          <VerifiedBadge level={comment.verified} size={12} />
          {comment.isAuthor && <span className="author-badge">作者</span>}
        </div>
        <p className="comment-text">
          {comment.replyTo && comment.reply_to_comment_id !== comment.parent_id && (
            <>
              回复 <span className="reply-to">{comment.replyTo}</span>：
            </>
          )}
          <span dangerouslySetInnerHTML={{ __html: commentBodyHtml(comment.content) }} />
        </p>
        {comment.images.length > 0 && <CommentPictures images={comment.images} />}
        <div className="comment-meta">
          <span>{relativeTime(comment.created_at)}</span>
          {comment.location && <span>{comment.location}</span>}
          <button type="button" className={`comment-like ${comment.isLiked ? 'liked' : ''}`} aria-pressed={comment.isLiked} aria-label={comment.likeCount > 0 ? `点赞评论 ${formatCount(comment.likeCount)}` : '点赞评论'} onClick={() => void state.like(comment)}>
            <Icon name="heart" size={14} filled={comment.isLiked} />
            {comment.likeCount > 0 ? formatCount(comment.likeCount) : '赞'}
          </button>
          <button type="button" className="comment-action" onClick={() => state.setReplyTo({ id: comment.id, parentId, name })}>
            回复
          </button>
          {me === comment.user_id && (
            <button type="button" className="comment-action" onClick={() => onDelete(comment)}>
              删除
            </button>
          )}
        </div>
      </div>
    </div>
  );
}

/** A comment's images as thumbnails, each opening the full-screen viewer. */
function CommentPictures({ images }: { images: string[] }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div className="comment-images">
      {images.map((url, index) => (
        <button key={url + index} type="button" className="comment-image" aria-label={`查看评论图片 ${index + 1}`} onClick={() => setOpen(index)}>
          <img src={url} alt={`评论图片 ${index + 1}`} loading="lazy" />
        </button>
      ))}
      {open !== null && <ImageViewer images={images} index={open} onIndex={setOpen} onClose={() => setOpen(null)} />}
    </div>
  );
}

function ThreadView({ thread, state, onDelete }: { thread: Thread; state: CommentsState; onDelete: (comment: NoteComment) => void }) {
  const shown = thread.expanded ? thread.replies : thread.replies.slice(0, SHOWN_REPLIES);
  const hidden = thread.reply_count - shown.length;
  return (
    <div className="thread">
      <CommentItem comment={thread} state={state} parentId={thread.id} onDelete={onDelete} />
      {shown.length > 0 && (
        <div className="replies">
          {shown.map((reply) => (
            <CommentItem key={reply.id} comment={reply} state={state} parentId={thread.id} onDelete={onDelete} />
          ))}
        </div>
      )}
      {hidden > 0 ? (
        <button type="button" className="expand-replies" onClick={() => void state.expand(thread)}>
          展开 {hidden} 条回复
        </button>
      ) : (
        thread.expanded &&
        thread.replies.length > SHOWN_REPLIES && (
          <button type="button" className="expand-replies" onClick={() => state.collapse(thread)}>
            收起
          </button>
        )
      )}
    </div>
  );
}

/** The comment list with its sort switch, pages and the delete confirmation. */
export function CommentList({ state, count }: { state: CommentsState; count: number }) {
  const [deleting, setDeleting] = useState<NoteComment | null>(null);
  return (
    <section className="comments" aria-label="评论">
      <div className="comments-head">
        <span>共 {count} 条评论</span>
        <div className="sort" role="radiogroup" aria-label="评论排序">
          <button type="button" role="radio" aria-checked={state.sort === 'desc'} className={state.sort === 'desc' ? 'active' : ''} onClick={() => void state.setSort('desc')}>
            最新
          </button>
          <button type="button" role="radio" aria-checked={state.sort === 'asc'} className={state.sort === 'asc' ? 'active' : ''} onClick={() => void state.setSort('asc')}>
            最早
          </button>
        </div>
      </div>
      {state.threads.map((thread) => (
        <ThreadView key={thread.id} thread={thread} state={state} onDelete={setDeleting} />
      ))}
      {state.loading ? (
        <div className="comments-foot">
          <Spinner />
        </div>
      ) : state.threads.length === 0 ? (
        <p className="comments-empty">还没有评论，快来抢沙发吧～</p>
      ) : state.hasMore ? (
        <button type="button" className="load-more" onClick={() => void state.loadMore()}>
          加载更多评论
        </button>
      ) : (
        <p className="comments-foot">— 到底了 —</p>
      )}
      {deleting && (
        <ConfirmDialog
          text={deleting.parent_id ? '确定删除这条回复吗？' : '确定删除这条评论吗？删除后其回复也会一并删除。'}
          confirmLabel="删除"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const target = deleting;
            setDeleting(null);
            void state.remove(target);
          }}
        />
      )}
    </section>
  );
}

let nextImageId = 0;

/**
 * The composer's image picker: the publish page's type, size and count rules, compression above 0.8 MB, and each
 * image uploaded through /api/upload/image as soon as it is chosen; one that fails is dropped with the spec's message.
 */
function useCommentImages() {
  const [images, dispatch] = useReducer(attachments, []);
  const count = useRef(0);
  count.current = images.length;

  const add = async (files: File[]) => {
    const { accepted, messages } = acceptImages(count.current, files);
    for (const message of messages) toast.error(message);
    if (accepted.length === 0) return;
    const compressed = await compressImages(accepted);
    for (const message of compressed.messages) toast.error(message);
    const added: CommentImage[] = compressed.files.map((file) => ({ id: `comment-image-${++nextImageId}`, file, preview: URL.createObjectURL(file), uploaded: false, url: null }));
    dispatch({ type: 'add', images: added });
    await Promise.all(
      added.map(async (image) => {
        const form = new FormData();
        form.append('image', image.file!);
        try {
          const { url } = await upload<UploadedImage>('/api/upload/image', form);
          dispatch({ type: 'uploaded', id: image.id, url });
        } catch {
          toast.error('图片上传失败，请重试');
          dispatch({ type: 'failed', id: image.id });
        }
      }),
    );
  };

  return { images, add, remove: (id: string) => dispatch({ type: 'remove', id }), set: (next: CommentImage[]) => dispatch({ type: 'set', images: next }) };
}

/** The composer: expands on focus, shows the reply target, Shift+Enter sends; a failure restores text, target and images. */
export function Composer({ state, actions }: { state: CommentsState; actions: React.ReactNode }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [picked, setPicked] = useState<PickedMentions>({});
  const field = useRef<HTMLTextAreaElement>(null);
  const chooser = useRef<HTMLInputElement>(null);
  const user = useSession((session) => session.user);
  const { replyTo, setReplyTo } = state;
  const pictures = useCommentImages();
  const uploading = isUploading(pictures.images);

  useEffect(() => {
    if (replyTo) {
      setOpen(true);
      field.current?.focus();
    }
  }, [replyTo]);

  const cancel = () => {
    setText('');
    setPicked({});
    setReplyTo(null);
    pictures.set([]);
    setOpen(false);
    field.current?.blur();
  };

  const needLogin = () => {
    if (user) return false;
    toast.info('请先登录');
    useSession.getState().openAuth();
    return true;
  };

  const send = async () => {
    if (needLogin()) return;
    const problem = commentProblem(text, pictures.images);
    if (problem) {
      toast.info(problem);
      return;
    }
    const typed = text;
    const images = pictures.images;
    const target: ReplyTarget | null = replyTo;
    setSending(true);
    setText('');
    setReplyTo(null);
    pictures.set([]);
    setOpen(false);
    const ok = await state.send(commentContent(encodeMentions(typed.trim(), picked), images), target);
    setSending(false);
    if (ok) setPicked({});
    else {
      setText(typed);
      setReplyTo(target);
      pictures.set(images);
      setOpen(true);
    }
  };

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    void pictures.add(files);
  };

  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && event.shiftKey) {
      event.preventDefault();
      void send();
    } else if (event.key === 'Escape') {
      event.stopPropagation();
      cancel();
    }
  };

  return (
    <div className={`composer ${open ? 'open' : ''}`}>
      {open && replyTo && (
        <div className="composer-target">
          回复 <b>{replyTo.name}</b>
        </div>
      )}
      <div className="composer-row">
        <textarea
          ref={field}
          className="composer-input"
          value={text}
          rows={open ? 3 : 1}
          maxLength={1000}
          placeholder={replyTo ? `回复 ${replyTo.name}` : '说点什么...'}
          aria-label="评论"
          onFocus={() => setOpen(true)}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKey}
        />
        {!open && <div className="composer-actions">{actions}</div>}
      </div>
      {open && pictures.images.length > 0 && (
        <div className="composer-images">
          {pictures.images.map((image, index) => (
            <div key={image.id} className={`upload-item ${image.uploaded ? '' : 'pending'}`}>
              <img src={image.preview} alt={`评论图片 ${index + 1}`} />
              {!image.uploaded && <Spinner label="上传中" />}
              <button type="button" className="upload-remove" aria-label={`删除评论图片 ${index + 1}`} onClick={() => pictures.remove(image.id)}>
                <Icon name="close" size={14} />
              </button>
            </div>
          ))}
        </div>
      )}
      {open && (
        <div className="composer-buttons">
          <Suspense fallback={null}>
            <ComposeTools field={field} value={text} onChange={setText} onMention={(more) => setPicked((before) => ({ ...before, ...more }))} maxLength={1000} />
          </Suspense>
          <input ref={chooser} type="file" accept="image/jpeg,image/png,image/webp" multiple hidden onChange={choose} aria-label="选择评论图片" />
          <button type="button" className="compose-tool composer-image-tool" aria-label="添加图片" title="添加图片" onClick={() => !needLogin() && chooser.current?.click()}>
            <Icon name="image" size={20} />
          </button>
          <span className="hint">Shift + Enter 发送</span>
          <button type="button" className="button ghost small" onClick={cancel}>
            取消
          </button>
          <button type="button" className="button primary small" disabled={sending || uploading || (!text.trim() && pictures.images.length === 0)} onClick={() => void send()}>
            {uploading ? '上传中' : '发送'}
          </button>
        </div>
      )}
    </div>
  );
}
