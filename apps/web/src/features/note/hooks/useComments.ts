import { useCallback, useEffect, useRef, useState } from 'react';
import { useLike } from '../../../hooks/useLike';
import { ApiError, type NoteComment } from '../../../lib/api/client';
import { requireLogin } from '../../../lib/require-login';
import { toast } from '../../../lib/toast';
import { deleteComment, fetchComments, fetchReplies, sendComment, type Sort } from '../api/comments';

/** How many extra pages locating a comment may load (public-side.md §2). */
const LOCATE_EXTRA_PAGES = 10;
const HIGHLIGHT_MS = 3000;

export interface ReplyTarget {
  id: number;
  parentId: number;
  name: string;
}

export interface Thread extends NoteComment {
  /** Every reply fetched (the first two arrive with the comment). */
  replies: NoteComment[];
  expanded: boolean;
}

const asThread = (comment: NoteComment): Thread => ({ ...comment, replies: comment.replies ?? [], expanded: false });

const needLogin = () => !requireLogin();

/**
 * The threads of one page with the comment `target` in view: as they are when it is a thread or one of the replies
 * that come with it; with its thread's replies all fetched and expanded when it is a later reply; null when the page
 * does not hold it.
 */
async function locateIn(threads: Thread[], target: number): Promise<Thread[] | null> {
  if (threads.some((thread) => thread.id === target || thread.replies.some((reply) => reply.id === target))) return threads;
  const hidden = threads.filter((thread) => thread.reply_count > thread.replies.length);
  const fetched = await Promise.all(hidden.map(async (thread) => ({ id: thread.id, replies: await fetchReplies(thread.id) })));
  const holder = fetched.find(({ replies }) => replies.some((reply) => reply.id === target));
  return holder ? threads.map((thread) => (thread.id === holder.id ? { ...thread, replies: holder.replies, expanded: true } : thread)) : null;
}

/** The comments of one note: pages of five, sort, replies, sending, deleting, likes and the located comment. */
export function useComments(postId: number, targetCommentId: number | null, onCountChange: (delta: number) => void) {
  const [threads, setThreads] = useState<Thread[]>([]);
  const [sort, setSortState] = useState<Sort>('desc');
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [replyTo, setReplyTo] = useState<ReplyTarget | null>(null);
  const generation = useRef(0);

  const fetchPage = useCallback(
    async (pageNumber: number, order: Sort) => {
      const answer = await fetchComments(postId, pageNumber, order);
      return { threads: answer.comments.map(asThread), total: answer.total, hasMore: answer.hasMore };
    },
    [postId],
  );

  const reportFailure = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return;
    toast.error('获取评论失败，请稍后重试');
  };

  // First page, then — when a comment is to be located — more pages until it shows up (at most ten more), with the
  // thread that holds it expanded when it is a reply behind 展开.
  useEffect(() => {
    const run = ++generation.current;
    setLoading(true);
    void (async () => {
      try {
        let loaded = await fetchPage(1, 'desc');
        let all = loaded.threads;
        let pageNumber = 1;
        let located: Thread[] | null = null;
        if (targetCommentId) {
          located = await locateIn(loaded.threads, targetCommentId);
          while (!located && loaded.hasMore && pageNumber <= LOCATE_EXTRA_PAGES) {
            pageNumber += 1;
            loaded = await fetchPage(pageNumber, 'desc');
            all = [...all, ...loaded.threads];
            located = await locateIn(loaded.threads, targetCommentId);
          }
          if (located) all = [...all.slice(0, all.length - located.length), ...located];
        }
        if (run !== generation.current) return;
        setThreads(all);
        setTotal(loaded.total);
        setHasMore(loaded.hasMore);
        setPage(pageNumber);
        if (targetCommentId) {
          if (located) {
            setHighlight(targetCommentId);
            setTimeout(() => setHighlight(null), HIGHLIGHT_MS);
          } else toast.error('未找到对应的评论，请刷新页面');
        }
      } catch (error) {
        if (run !== generation.current) return;
        setThreads([]);
        setHasMore(false);
        reportFailure(error);
      } finally {
        if (run === generation.current) setLoading(false);
      }
    })();
  }, [fetchPage, targetCommentId]);

  const loadMore = async () => {
    if (needLogin() || loading) return;
    setLoading(true);
    const run = generation.current;
    try {
      const next = await fetchPage(page + 1, sort);
      if (run !== generation.current) return;
      setThreads((before) => [...before, ...next.threads.filter((thread) => !before.some((known) => known.id === thread.id))]);
      setHasMore(next.hasMore);
      setTotal(next.total);
      setPage(page + 1);
    } catch (error) {
      reportFailure(error);
    } finally {
      setLoading(false);
    }
  };

  const setSort = async (order: Sort) => {
    if (order === sort || needLogin()) return;
    const run = ++generation.current;
    setSortState(order);
    setLoading(true);
    try {
      const first = await fetchPage(1, order);
      if (run !== generation.current) return;
      setThreads(first.threads);
      setHasMore(first.hasMore);
      setTotal(first.total);
      setPage(1);
    } catch {
      toast.error('排序失败，请重试');
    } finally {
      if (run === generation.current) setLoading(false);
    }
  };

  const patch = (id: number, change: (comment: NoteComment) => NoteComment) =>
    setThreads((before) =>
      before.map((thread) => (thread.id === id ? { ...thread, ...change(thread) } : thread.replies.some((reply) => reply.id === id) ? { ...thread, replies: thread.replies.map((reply) => (reply.id === id ? change(reply) : reply)) } : thread)),
    );

  const expand = async (thread: Thread) => {
    if (thread.replies.length >= thread.reply_count) {
      setThreads((before) => before.map((known) => (known.id === thread.id ? { ...known, expanded: true } : known)));
      return;
    }
    try {
      const replies = await fetchReplies(thread.id);
      setThreads((before) => before.map((known) => (known.id === thread.id ? { ...known, replies, expanded: true } : known)));
    } catch {
      toast.error('获取评论失败，请稍后重试');
    }
  };

  const collapse = (thread: Thread) => setThreads((before) => before.map((known) => (known.id === thread.id ? { ...known, expanded: false } : known)));

  /** Sends a comment or a reply; resolves false (and restores nothing itself) when it failed. */
  const send = async (content: string, target: ReplyTarget | null): Promise<boolean> => {
    if (needLogin()) return false;
    try {
      const created = await sendComment(postId, content, target ? target.id : null);
      if (target) {
        setThreads((before) => before.map((thread) => (thread.id === target.parentId ? { ...thread, replies: [...thread.replies, created], reply_count: thread.reply_count + 1, expanded: true } : thread)));
      } else {
        setThreads((before) => (sort === 'desc' ? [asThread(created), ...before] : hasMore ? before : [...before, asThread(created)]));
      }
      setTotal((value) => value + 1);
      onCountChange(1);
      toast.success(target ? '回复成功' : '评论成功');
      return true;
    } catch (error) {
      toast.error(error instanceof ApiError && error.status !== 0 && error.message ? error.message : '发送失败，请重试');
      return false;
    }
  };

  const remove = async (comment: NoteComment) => {
    const reply = comment.parent_id !== null;
    try {
      const deletedCount = await deleteComment(comment.id);
      setThreads((before) =>
        reply
          ? before.map((thread) => (thread.id === comment.parent_id ? { ...thread, replies: thread.replies.filter((known) => known.id !== comment.id), reply_count: Math.max(0, thread.reply_count - 1) } : thread))
          : before.filter((thread) => thread.id !== comment.id),
      );
      setTotal((value) => Math.max(0, value - deletedCount));
      onCountChange(-deletedCount);
      toast.success('删除成功');
    } catch {
      toast.error(reply ? '删除回复失败，请重试' : '删除评论失败，请重试');
    }
  };

  const shown = useRef(threads);
  shown.current = threads;
  const find = (id: number) => {
    for (const thread of shown.current) {
      if (thread.id === id) return thread;
      const reply = thread.replies.find((known) => known.id === id);
      if (reply) return reply;
    }
    return undefined;
  };
  const sendLike = useLike<NoteComment>({
    targetOf: (comment) => ({ target_type: 2, target_id: comment.id }),
    view: {
      read: (comment) => {
        const known = find(comment.id) ?? comment;
        return { active: known.isLiked, count: known.likeCount };
      },
      write: (comment, state) => patch(comment.id, (known) => ({ ...known, isLiked: state.active, liked: state.active, likeCount: state.count, like_count: state.count })),
    },
    onFailed: () => toast.error('操作失败，请重试'),
  });
  const like = (comment: NoteComment) => {
    sendLike(comment);
  };

  return { threads, sort, setSort, hasMore, total, loading, loadMore, expand, collapse, send, remove, like, highlight, replyTo, setReplyTo };
}

export type CommentsState = ReturnType<typeof useComments>;
