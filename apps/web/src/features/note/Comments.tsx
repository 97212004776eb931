import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Avatar } from '../../components/Avatar';
import { Spinner } from '../../components/Feedback';
import { UserHover } from '../../components/HoverCard';
import { Icon, VerifiedBadge } from '../../components/Icon';
import { ConfirmDialog } from '../../components/Modal';
import type { NoteComment } from '../../lib/api/client';
import { formatCount, relativeTime } from '../../lib/format';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { ComposeTools } from '../compose/ComposeTools';
import { encodeMentions, type PickedMentions } from '../compose/mentions';
import { commentHtml } from './rich-text';
import type { CommentsState, ReplyTarget, Thread } from './useComments';

const SHOWN_REPLIES = 2;

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
          <span dangerouslySetInnerHTML={{ __html: commentHtml(comment.content) }} />
        </p>
        <div className="comment-meta">
          <span>{relativeTime(comment.created_at)}</span>
          {comment.location && <span>{comment.location}</span>}
          <button type="button" className={`comment-like ${comment.isLiked ? 'liked' : ''}`} aria-pressed={comment.isLiked} aria-label="点赞评论" onClick={() => void state.like(comment)}>
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

/** The composer: expands on focus, shows the reply target, Shift+Enter sends; a failure restores text and target. */
export function Composer({ state, actions }: { state: CommentsState; actions: React.ReactNode }) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [picked, setPicked] = useState<PickedMentions>({});
  const field = useRef<HTMLTextAreaElement>(null);
  const user = useSession((session) => session.user);
  const { replyTo, setReplyTo } = state;

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
    setOpen(false);
    field.current?.blur();
  };

  const send = async () => {
    const content = text.trim();
    if (!user) {
      toast.info('请先登录');
      useSession.getState().openAuth();
      return;
    }
    if (!content) {
      toast.info('请输入评论内容');
      return;
    }
    const target: ReplyTarget | null = replyTo;
    setSending(true);
    setText('');
    setReplyTo(null);
    setOpen(false);
    const ok = await state.send(encodeMentions(content, picked), target);
    setSending(false);
    if (ok) setPicked({});
    else {
      setText(content);
      setReplyTo(target);
      setOpen(true);
    }
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
      {open && (
        <div className="composer-buttons">
          <ComposeTools field={field} value={text} onChange={setText} onMention={(more) => setPicked((before) => ({ ...before, ...more }))} maxLength={1000} />
          <span className="hint">Shift + Enter 发送</span>
          <button type="button" className="button ghost small" onClick={cancel}>
            取消
          </button>
          <button type="button" className="button primary small" disabled={sending || !text.trim()} onClick={() => void send()}>
            发送
          </button>
        </div>
      )}
    </div>
  );
}
