import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState, Spinner } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useChannels } from '../../hooks/useChannels';
import { api, ApiError, authFetch, call, type UploadedImage } from '../../lib/api/client';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { ComposeTools } from '../compose/ComposeTools';
import { decodeMentions, encodeMentions, type PickedMentions } from '../compose/mentions';
import { compressImage, uploadVideo, videoThumbnail } from './media';
import { TextImageModal } from './TextImageModal';
import {
  contentToText,
  imageProblem,
  imageSlots,
  LIMITS,
  LONG_PRESS,
  moveItem,
  type PublishMode,
  publishProblem,
  publishSteps,
  type PublishStep,
  stepLabel,
  tagState,
  tagSuggestions,
  textToContent,
  videoProblem,
} from './publish-rules';

interface ImageItem {
  id: string;
  file: File | null;
  preview: string;
  url: string | null;
}

interface VideoItem {
  file: File | null;
  name: string;
  size: number;
  url: string | null;
  coverUrl: string | null;
  thumbnail: Blob | null;
  thumbnailUrl: string | null;
}

/** After a publish or a draft save the page moves on 1.5 s later (public-side.md §2). */
const REDIRECT_MS = 1500;

let nextId = 0;
const newId = () => `img-${++nextId}`;

async function uploadImages(files: File[]): Promise<string[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file);
  let answer: Response;
  try {
    answer = await authFetch(new Request(new URL('/api/upload/multiple', location.origin), { method: 'POST', body: form }));
  } catch {
    throw new ApiError('网络连接失败，请检查网络设置', 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: { uploaded: UploadedImage[]; errors: { file: string; reason: string }[] }; message?: string };
  if (!answer.ok || !body.data) throw new ApiError(body.message || '图片上传失败', answer.status);
  if (body.data.errors.length > 0 || body.data.uploaded.length !== files.length) throw new ApiError(body.data.errors.map((error) => `${error.file}: ${error.reason}`).join('；') || '图片上传失败', 400);
  return body.data.uploaded.map((image) => image.url);
}

async function uploadCover(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  let answer: Response;
  try {
    answer = await authFetch(new Request(new URL('/api/upload/single', location.origin), { method: 'POST', body: form }));
  } catch {
    throw new ApiError('封面上传失败，请重试', 0);
  }
  const body = (await answer.json().catch(() => ({}))) as { data?: { url: string } };
  if (!answer.ok || !body.data) throw new ApiError('封面上传失败，请重试', answer.status);
  return body.data.url;
}

/**
 * Touch reordering: a press held 300 ms without moving 10 px picks the image up (with a short vibration), then it
 * follows the finger over the others; moving earlier is a scroll and cancels the press.
 */
function useLongPressReorder(grid: React.RefObject<HTMLDivElement | null>, images: ImageItem[], setImages: (next: ImageItem[]) => void, setDragging: (id: string | null) => void) {
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

function ImageGrid({ images, setImages }: { images: ImageItem[]; setImages: (next: ImageItem[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [writing, setWriting] = useState(false);
  useLongPressReorder(grid, images, setImages, setDragging);

  const add = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    await addFiles(files);
  };

  const addFiles = async (files: File[]) => {
    if (files.length === 0) return;
    const { take, message } = imageSlots(images.length, files.length);
    if (message) toast.error(message);
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of files.slice(0, take)) {
      const problem = imageProblem(file);
      if (problem) problems.push(`${file.name}: ${problem}`);
      else accepted.push(file);
    }
    if (problems.length > 0) toast.error(problems.join('；'));
    setBusy(true);
    const compressed = await Promise.all(accepted.map(compressImage));
    setBusy(false);
    setImages([...images, ...compressed.map((file) => ({ id: newId(), file, preview: URL.createObjectURL(file), url: null }))]);
  };

  const drop = (targetId: string) => {
    if (dragging) setImages(moveItem(images, dragging, targetId));
  };

  const move = (index: number, by: number) => {
    const to = index + by;
    if (to < 0 || to >= images.length) return;
    const next = [...images];
    [next[index], next[to]] = [next[to] as ImageItem, next[index] as ImageItem];
    setImages(next);
  };

  return (
    <div ref={grid} className="upload-grid">
      {images.map((image, index) => (
        <div
          key={image.id}
          data-id={image.id}
          className={`upload-item ${dragging === image.id ? 'dragging' : ''}`}
          draggable
          onDragStart={() => setDragging(image.id)}
          onDragEnd={() => setDragging(null)}
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            drop(image.id);
          }}
          tabIndex={0}
          aria-label={`第 ${index + 1} 张图片`}
          onKeyDown={(event: KeyboardEvent) => {
            if (event.key === 'ArrowLeft') move(index, -1);
            if (event.key === 'ArrowRight') move(index, 1);
          }}
        >
          <img src={image.url ?? image.preview} alt={`第 ${index + 1} 张图片`} draggable={false} />
          {index === 0 && <span className="upload-cover-tag">封面</span>}
          <button type="button" className="upload-remove" aria-label={`删除第 ${index + 1} 张图片`} onClick={() => setImages(images.filter((each) => each.id !== image.id))}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      {images.length < LIMITS.images && (
        <button type="button" className="upload-add" onClick={() => input.current?.click()} disabled={busy}>
          {busy ? <Spinner label="处理中" /> : <Icon name="plus" size={28} />}
          <span>
            {images.length}/{LIMITS.images}
          </span>
        </button>
      )}
      {images.length < LIMITS.images && (
        <button type="button" className="upload-add text-image-button" onClick={() => setWriting(true)} disabled={busy}>
          <Icon name="text" size={26} />
          <span>文字配图</span>
        </button>
      )}
      <input ref={input} type="file" accept="image/jpeg,image/png,image/webp" multiple hidden onChange={(event) => void add(event)} aria-label="选择图片" />
      {writing && <TextImageModal onDone={(file) => void addFiles([file])} onClose={() => setWriting(false)} />}
    </div>
  );
}

function VideoPicker({ video, setVideo, progress, cover, setCover }: { video: VideoItem | null; setVideo: (next: VideoItem | null) => void; progress: number | null; cover: File | null; setCover: (file: File | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const coverInput = useRef<HTMLInputElement>(null);
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = videoProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    const item: VideoItem = { file, name: file.name, size: file.size, url: null, coverUrl: null, thumbnail: null, thumbnailUrl: null };
    setVideo(item);
    videoThumbnail(file)
      .then((thumbnail) => {
        if (thumbnail) setVideo({ ...item, thumbnail, thumbnailUrl: URL.createObjectURL(thumbnail) });
        else toast.info('缩略图生成失败，但不影响视频上传');
      })
      .catch(() => toast.info('缩略图生成异常，但不影响视频上传'));
  };
  const chooseCover = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) toast.error('请选择图片文件');
    else if (file.size > LIMITS.coverBytes) toast.error('封面图片大小不能超过5MB');
    else setCover(file);
  };
  const coverPreview = useMemo(() => (cover ? URL.createObjectURL(cover) : null), [cover]);
  const shownCover = coverPreview ?? video?.thumbnailUrl ?? video?.coverUrl;
  return (
    <div className="video-picker">
      {video ? (
        <div className="video-chosen">
          <div className="video-thumb">{shownCover ? <img src={shownCover} alt="视频封面" /> : <Icon name="play" size={30} />}</div>
          <div className="video-meta">
            <strong>{video.name}</strong>
            <span>{(video.size / 1024 / 1024).toFixed(1)} MB</span>
            {progress !== null && (
              <div className="progress" role="progressbar" aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100} aria-label="上传进度">
                <span style={{ width: `${progress}%` }} />
                <em>{progress}%</em>
              </div>
            )}
            <div className="video-actions">
              <button type="button" className="button ghost small" onClick={() => coverInput.current?.click()}>
                {cover ? '更换封面' : '自定义封面'}
              </button>
              <button type="button" className="button ghost small" onClick={() => {
                  setVideo(null);
                  setCover(null);
                }}
              >
                移除视频
              </button>
            </div>
          </div>
        </div>
      ) : (
        <button type="button" className="video-drop" onClick={() => input.current?.click()}>
          <Icon name="play" size={30} />
          <strong>选择视频</strong>
          <span>支持 MP4、MOV、AVI 格式，建议时长不超过 5 分钟</span>
        </button>
      )}
      <input ref={input} type="file" accept="video/*" hidden onChange={choose} aria-label="选择视频" />
      <input ref={coverInput} type="file" accept="image/*" hidden onChange={chooseCover} aria-label="选择封面" />
    </div>
  );
}

function TagInput({ tags, setTags }: { tags: string[]; setTags: (next: string[]) => void }) {
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const known = useQuery({ queryKey: ['tags'], staleTime: 5 * 60_000, queryFn: () => call(api.GET('/api/tags', { params: { query: { limit: 100 } } })) });
  const state = tagState(tags, text);
  const add = (value: string) => {
    const next = tagState(tags, value);
    if (next.reason === 'full') toast.error(`最多只能选择${LIMITS.tags}个标签`);
    if (next.ok) setTags([...tags, next.tag]);
    if (next.ok || next.reason === 'duplicate') setText('');
  };
  const suggestions = focused ? tagSuggestions((known.data ?? []).map((tag) => tag.name), tags, text) : [];
  return (
    <div className="tag-input">
      <div className="tag-field">
        {tags.map((tag) => (
          <span key={tag} className="chip active">
            #{tag}
            <button type="button" aria-label={`移除标签 ${tag}`} onClick={() => setTags(tags.filter((each) => each !== tag))}>
              ×
            </button>
          </span>
        ))}
        <input
          value={text}
          maxLength={LIMITS.tagLength}
          placeholder={tags.length >= LIMITS.tags ? '标签已满' : '输入标签，回车添加'}
          aria-label="添加标签"
          onChange={(event) => {
            const value = event.target.value;
            if (value.endsWith(',') || value.endsWith('，')) add(value.slice(0, -1));
            else setText(value);
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setTimeout(() => setFocused(false), 150)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add(text);
            }
          }}
        />
        <button type="button" className="button ghost small" disabled={!state.ok} onClick={() => add(text)}>
          添加
        </button>
      </div>
      {suggestions.length > 0 && (
        <ul className="tag-suggestions" aria-label="标签建议">
          {suggestions.map((name) => (
            <li key={name}>
              <button type="button" className="chip" onMouseDown={(event) => event.preventDefault()} onClick={() => add(name)}>
                #{name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="field-hint">
        {tags.length}/{LIMITS.tags}
      </p>
    </div>
  );
}

/** /publish (and ?draftId=&mode=edit): the image or video note form with save draft and publish. */
export default function PublishPage() {
  const user = useSession((state) => state.user);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const { channels } = useChannels();
  const categories = channels.filter((channel) => channel.id > 0);
  const [draftId, setDraftId] = useState<number | null>(() => Number(params.get('draftId')) || null);
  const [mode, setMode] = useState<PublishMode>('image');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [picked, setPicked] = useState<PickedMentions>({});
  const contentField = useRef<HTMLTextAreaElement>(null);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [images, setImages] = useState<ImageItem[]>([]);
  const [video, setVideo] = useState<VideoItem | null>(null);
  const [cover, setCover] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [step, setStep] = useState<{ kind: 'publish' | 'draft'; step: PublishStep } | null>(null);
  const [loading, setLoading] = useState(Boolean(draftId));

  useEffect(() => {
    document.title = '发布笔记 - 拾柳';
  }, []);

  useEffect(() => {
    if (!draftId || !user || !loading) return;
    call(api.GET('/api/posts/{id}', { params: { path: { id: draftId }, query: { skipViewCount: true } } }))
      .then((draft) => {
        setTitle(draft.title ?? '');
        const shown = decodeMentions(contentToText(draft.content ?? ''));
        setContent(shown.text);
        setPicked(shown.picked);
        setCategoryId(draft.category_id ?? null);
        setTags((draft.tags ?? []).map((tag) => (typeof tag === 'string' ? tag : tag.name)));
        if (draft.type === 2 && draft.video_url) {
          setMode('video');
          setVideo({ file: null, name: '已上传的视频', size: 0, url: draft.video_url, coverUrl: draft.cover_url, thumbnail: null, thumbnailUrl: null });
        } else setImages((draft.images ?? []).map((url) => ({ id: newId(), file: null, preview: url, url })));
        setLoading(false);
      })
      .catch(() => {
        toast.error('草稿不存在或已被删除');
        void navigate('/draft-box', { replace: true });
      });
  }, [draftId, user, loading, navigate]);

  if (!user) {
    return (
      <section className="publish-page">
        <EmptyState text="登录后即可发布和管理笔记">
          <button type="button" className="button primary" onClick={() => useSession.getState().openAuth()}>
            登录
          </button>
        </EmptyState>
      </section>
    );
  }
  if (loading) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  }

  const switchMode = (next: PublishMode) => {
    if (next === mode) return;
    setMode(next);
    if (next === 'image') {
      setVideo(null);
      setCover(null);
    } else setImages([]);
  };

  const submit = async (draft: boolean) => {
    if (step) return;
    const problem = publishProblem({ mode, title, content, categoryId, images: images.length, video: Boolean(video) }, draft);
    if (problem) {
      toast.error(problem);
      return;
    }
    const kind = draft ? 'draft' : 'publish';
    const pendingImages = mode === 'image' ? images.filter((image) => !image.url) : [];
    const steps = publishSteps({ images: pendingImages.length, video: mode === 'video' && Boolean(video && !video.url), cover: mode === 'video' && Boolean(cover) });
    let imageUrls = images.map((image) => image.url);
    let videoDone = video;
    let coverUrl = video?.coverUrl ?? null;
    try {
      for (const current of steps) {
        setStep({ kind, step: current });
        if (current === 'images') {
          const urls = await uploadImages(pendingImages.map((image) => image.file as File));
          let at = 0;
          const next = images.map((image) => (image.url ? image : { ...image, url: urls[at++] ?? null }));
          setImages(next);
          imageUrls = next.map((image) => image.url);
        } else if (current === 'video' && video?.file) {
          setProgress(0);
          const uploaded = await uploadVideo(video.file, video.thumbnail, setProgress);
          videoDone = { ...video, url: uploaded.url, coverUrl: uploaded.coverUrl };
          coverUrl = uploaded.coverUrl;
          setVideo(videoDone);
          toast.success('视频上传成功');
        } else if (current === 'cover' && cover) {
          coverUrl = await uploadCover(cover);
          setCover(null);
          if (videoDone) setVideo({ ...videoDone, coverUrl });
        } else if (current === 'submit') {
          const body = {
            title: title.trim(),
            content: textToContent(encodeMentions(content.trim(), picked)),
            tags,
            type: mode === 'image' ? (1 as const) : (2 as const),
            is_draft: draft,
            ...(categoryId ? { category_id: categoryId } : {}),
            ...(mode === 'image' ? { images: imageUrls.filter((url): url is string => Boolean(url)) } : {}),
            ...(mode === 'video' && videoDone?.url ? { video: { url: videoDone.url, ...(coverUrl ? { coverUrl } : {}), name: videoDone.name, size: videoDone.size } } : {}),
          };
          const saved = draftId ? await call(api.PUT('/api/posts/{id}', { params: { path: { id: draftId } }, body })) : await call(api.POST('/api/posts', { body }));
          void client.invalidateQueries({ queryKey: ['feed'] });
          void client.invalidateQueries({ queryKey: ['manage'] });
          if (draft) {
            setDraftId(saved.id);
            toast.success('保存成功');
            setTimeout(() => void navigate('/draft-box'), REDIRECT_MS);
          } else {
            toast.success('发布成功');
            setTimeout(() => void navigate('/post-management'), REDIRECT_MS);
          }
        }
      }
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : '';
      toast.error(draft ? `草稿保存失败${message ? `：${message}` : ''}` : message || '发布失败，请重试');
      setProgress(null);
    } finally {
      setStep(null);
    }
  };

  const busy = step !== null;
  return (
    <section className="publish-page">
      <header className="publish-head">
        <h1>{draftId ? '编辑笔记' : '发布笔记'}</h1>
        <nav className="publish-links">
          <Link to="/draft-box" className="button ghost small">
            草稿箱
          </Link>
          <Link to="/post-management" className="button ghost small">
            笔记管理
          </Link>
        </nav>
      </header>
      <div className="publish-card">
        <div className="publish-modes" role="tablist" aria-label="上传类型">
          {(['image', 'video'] as const).map((each) => (
            <button key={each} type="button" role="tab" aria-selected={mode === each} className={`publish-mode ${mode === each ? 'active' : ''}`} onClick={() => switchMode(each)} disabled={busy}>
              <Icon name={each === 'image' ? 'image' : 'play'} size={18} />
              {each === 'image' ? '上传图文' : '上传视频'}
            </button>
          ))}
        </div>
        {mode === 'image' ? <ImageGrid images={images} setImages={setImages} /> : <VideoPicker video={video} setVideo={setVideo} progress={progress} cover={cover} setCover={setCover} />}

        <label className="field">
          <span className="field-label">标题</span>
          <span className="counted">
            <input value={title} maxLength={LIMITS.title} onChange={(event) => setTitle(event.target.value)} placeholder="填写标题会有更多赞哦" />
            <em>
              {title.length}/{LIMITS.title}
            </em>
          </span>
        </label>
        <label className="field">
          <span className="field-label">正文</span>
          <span className="counted">
            <textarea ref={contentField} value={content} maxLength={LIMITS.content} rows={8} onChange={(event) => setContent(event.target.value)} placeholder="添加正文" />
            <em>
              {content.length}/{LIMITS.content}
            </em>
          </span>
        </label>
        <ComposeTools field={contentField} value={content} onChange={setContent} onMention={(more) => setPicked((before) => ({ ...before, ...more }))} maxLength={LIMITS.content} />
        <label className="field">
          <span className="field-label">分类</span>
          <select value={categoryId ?? ''} onChange={(event) => setCategoryId(event.target.value ? Number(event.target.value) : null)}>
            <option value="">请选择分类</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <div className="field">
          <span className="field-label">标签</span>
          <TagInput tags={tags} setTags={setTags} />
        </div>
        <div className="publish-actions">
          <button type="button" className="button ghost large" disabled={busy} onClick={() => void submit(true)}>
            {step?.kind === 'draft' ? stepLabel(step.step, '存草稿') : '存草稿'}
          </button>
          <button type="button" className="button primary large" disabled={busy} onClick={() => void submit(false)}>
            {step?.kind === 'publish' ? stepLabel(step.step, '发布') : '发布'}
          </button>
        </div>
      </div>
    </section>
  );
}
