import { useEffect, useReducer, useState } from 'react';
import { useNavigate } from 'react-router';
import { decodeMentions } from '../../../components/compose/mentions';
import { ApiError } from '../../../lib/api/client';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { fetchDraft } from '../api/publish';
import { emptyForm, newImageId, type PublishForm, publishFormReducer } from '../publish-form';
import { contentToText } from '../publish-rules';

/**
 * The publish form's state; with a draft id the draft is loaded into it. A draft that is gone opens the draft box;
 * any other failure says 加载草稿失败 and offers `retryLoad`.
 */
export function usePublishForm(draftId: number | null) {
  const user = useSession((state) => state.user);
  const navigate = useNavigate();
  const [form, dispatch] = useReducer(publishFormReducer, draftId, emptyForm);
  const [loadFailed, setLoadFailed] = useState(false);
  const set = (change: Partial<PublishForm>) => dispatch({ type: 'set', change });

  useEffect(() => {
    if (!form.draftId || !user || !form.loading || loadFailed) return;
    fetchDraft(form.draftId)
      .then((draft) => {
        const shown = decodeMentions(contentToText(draft.content ?? ''));
        const media =
          draft.type === 2 && draft.video_url
            ? { mode: 'video' as const, video: { file: null, name: '已上传的视频', size: 0, url: draft.video_url, coverUrl: draft.cover_url, thumbnail: null, thumbnailUrl: null } }
            : { images: (draft.images ?? []).map((url) => ({ id: newImageId(), file: null, preview: url, url })) };
        dispatch({
          type: 'set',
          change: {
            title: draft.title ?? '',
            content: shown.text,
            picked: shown.picked,
            categoryId: draft.category_id ?? null,
            tags: (draft.tags ?? []).map((tag) => (typeof tag === 'string' ? tag : tag.name)),
            ...media,
            loading: false,
            published: !draft.is_draft,
          },
        });
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) {
          toast.error('草稿不存在或已被删除');
          void navigate('/draft-box', { replace: true });
          return;
        }
        toast.error(error instanceof ApiError ? `加载草稿失败：${error.message}` : '加载草稿失败');
        setLoadFailed(true);
      });
  }, [form.draftId, user, form.loading, loadFailed, navigate]);

  return { form, dispatch, set, loadFailed, retryLoad: () => setLoadFailed(false) };
}
