import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { encodeMentions } from '../../../components/compose/mentions';
import { sharedKeys } from '../../../lib/api/query-keys';
import { toast } from '../../../lib/toast';
import { publishKeys, saveNote, uploadCover, uploadImages, uploadVideo } from '../api/publish';
import type { PublishForm } from '../publish-form';
import { publishProblem, publishSteps, textToContent } from '../publish-rules';

/** After a publish or a draft save the page moves on 1.5 s later (public-side.md §2). */
const REDIRECT_MS = 1500;

/**
 * Publishing or saving a draft: checks the form, then uploads what is not uploaded yet (images, video, cover),
 * each step shown on the button, and saves the note; on a failure the spec's message shows.
 */
export function usePublishSubmit(form: PublishForm, set: (change: Partial<PublishForm>) => void) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { mode, title, content, picked, categoryId, tags, images, video, cover, draftId, step } = form;

  return async (draft: boolean) => {
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
        set({ step: { kind, step: current } });
        if (current === 'images') {
          const urls = await uploadImages(pendingImages.map((image) => image.file as File));
          let at = 0;
          const next = images.map((image) => (image.url ? image : { ...image, url: urls[at++] ?? null }));
          set({ images: next });
          imageUrls = next.map((image) => image.url);
        } else if (current === 'video' && video?.file) {
          set({ progress: 0 });
          const uploaded = await uploadVideo(video.file, video.thumbnail, (progress) => set({ progress }));
          videoDone = { ...video, url: uploaded.url, coverUrl: uploaded.coverUrl };
          coverUrl = uploaded.coverUrl;
          set({ video: videoDone });
          toast.success('视频上传成功');
        } else if (current === 'cover' && cover) {
          coverUrl = await uploadCover(cover);
          set({ cover: null, ...(videoDone ? { video: { ...videoDone, coverUrl } } : {}) });
        } else if (current === 'submit') {
          const saved = await saveNote(draftId, {
            title: title.trim(),
            content: textToContent(encodeMentions(content.trim(), picked)),
            tags,
            type: mode === 'image' ? 1 : 2,
            is_draft: draft,
            ...(categoryId ? { category_id: categoryId } : {}),
            ...(mode === 'image' ? { images: imageUrls.filter((url): url is string => Boolean(url)) } : {}),
            ...(mode === 'video' && videoDone?.url ? { video: { url: videoDone.url, ...(coverUrl ? { coverUrl } : {}), name: videoDone.name, size: videoDone.size } } : {}),
          });
          void client.invalidateQueries({ queryKey: sharedKeys.feeds });
          void client.invalidateQueries({ queryKey: publishKeys.manage });
          if (draft) {
            set({ draftId: saved.id });
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
      set({ progress: null });
    } finally {
      set({ step: null });
    }
  };
}
