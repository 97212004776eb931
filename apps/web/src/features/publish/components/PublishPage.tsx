import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState, Spinner } from '../../../components/Feedback';
import { Icon } from '../../../components/Icon';
import { useChannels } from '../../../hooks/useChannels';
import { useSession } from '../../../lib/session';
import { useAddImages } from '../hooks/useAddImages';
import { usePublishForm } from '../hooks/usePublishForm';
import { usePublishSubmit } from '../hooks/usePublishSubmit';
import { PUBLISH_IDLE_LABEL, stepLabel } from '../publish-rules';
import { ImageGrid } from './ImageGrid';
import { NoteText } from './NoteText';
import { TagInput } from './TagInput';
import { VideoPicker } from './VideoPicker';

/** /publish (and ?draftId=&mode=edit): the image or video note form with save draft and publish. */
export default function PublishPage() {
  const user = useSession((state) => state.user);
  const [params] = useSearchParams();
  const { categories } = useChannels();
  const { form, dispatch, set, loadFailed, retryLoad } = usePublishForm(Number(params.get('draftId')) || null);
  const submit = usePublishSubmit(form, set);
  const addImages = useAddImages(form.images, (next) => set({ images: next }));
  const { draftId, mode, title, content, categoryId, tags, images, video, cover, progress, step } = form;

  useEffect(() => {
    document.title = '发布笔记 - 拾柳';
  }, []);

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
  if (loadFailed) {
    return (
      <section className="publish-page">
        <EmptyState text="加载草稿失败">
          <button type="button" className="button primary" onClick={retryLoad}>
            重试
          </button>
        </EmptyState>
      </section>
    );
  }
  if (form.loading) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  }

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
            <button key={each} type="button" role="tab" aria-selected={mode === each} className={`publish-mode ${mode === each ? 'active' : ''}`} onClick={() => dispatch({ type: 'mode', mode: each })} disabled={busy}>
              <Icon name={each === 'image' ? 'image' : 'play'} size={18} />
              {each === 'image' ? '上传图文' : '上传视频'}
            </button>
          ))}
        </div>
        {mode === 'image' ? (
          <ImageGrid images={images} setImages={(next) => set({ images: next })} add={addImages.add} busy={addImages.busy} />
        ) : (
          <VideoPicker video={video} setVideo={(next) => set({ video: next, videoError: null })} progress={progress} error={form.videoError} cover={cover} setCover={(next) => set({ cover: next })} />
        )}
        <NoteText title={title} content={content} onTitle={(next) => set({ title: next })} onContent={(next) => set({ content: next })} onMention={(picked) => dispatch({ type: 'mention', picked })} onPasteImages={mode === 'image' ? (files) => void addImages.add(files) : undefined} />
        <label className="field">
          <span className="field-label">分类</span>
          <select value={categoryId ?? ''} onChange={(event) => set({ categoryId: event.target.value ? Number(event.target.value) : null })}>
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
          <TagInput tags={tags} setTags={(next) => set({ tags: next })} />
        </div>
        <div className="publish-actions">
          <button type="button" className="button ghost large" disabled={busy} onClick={() => void submit(true)}>
            {step?.kind === 'draft' ? stepLabel(step.step, '存草稿') : '存草稿'}
          </button>
          <button type="button" className="button primary large" disabled={busy} onClick={() => void submit(false)}>
            {stepLabel(step?.kind === 'publish' ? step.step : null, PUBLISH_IDLE_LABEL)}
          </button>
        </div>
      </div>
    </section>
  );
}
