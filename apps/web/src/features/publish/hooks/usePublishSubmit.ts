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
  const { mode, title, content, picked, categoryId, tags, images, video, cover, draftId, step, published } = form;

  return async (draft: boolean) => {
    if (step) return;
    const problem = publishProblem({ mode, title, content, categoryId, images: images.length, video: Boolean(video), published }, draft);
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
          const files = pendingImages.map((image) => image.file);
          if (files.some((file) => !file)) throw new Error('图片组件未初始化');
          const batch = await uploadImages(files as File[]);
          let at = 0;
          const next = images.map((image) => {
            if (image.url) return image;
            const index = at++;
            return { ...image, url: batch.urls[index] ?? null, refused: batch.reasons[index] ?? undefined };
          });
          set({ images: next });
          imageUrls = next.map((image) => image.url);
          // The uploaded ones keep their addresses; a retry sends only the ones refused.
          if (batch.failed > 0) throw new Error(batch.message);
          toast.success(batch.message);
        } else if (current === 'video') {
          if (!video) throw new Error('视频组件未找到');
          set({ progress: 0, videoError: null });
          const uploaded = await uploadVideo(video.file, video.thumbnail, (progress) => set({ progress })).catch((error: unknown) => {
            const reason = error instanceof Error && error.message ? error.message : '未知错误';
            set({ videoError: reason });
            throw new Error(reason.startsWith('视频') ? reason : `视频上传失败：${reason}`);
          });
          videoDone = { ...video, url: uploaded.url, coverUrl: uploaded.coverUrl };
          coverUrl = uploaded.coverUrl;
          set({ video: videoDone });
          toast.success('视频上传成功');
        } else if (current === 'cover') {
          if (!cover) throw new Error('没有需要上传的视频/封面');
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
            toast.success(published ? '更新成功' : '发布成功');
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
