import { type ChangeEvent, useMemo, useRef } from 'react';
import { Icon } from '../../../components/Icon';
import { toast } from '../../../lib/toast';
import { ThumbnailError, videoThumbnail } from '../media';
import type { VideoItem } from '../publish-form';
import { LIMITS, videoProblem } from '../publish-rules';

/**
 * The video of a video note: choose one (with a thumbnail; one that cannot be made only warns), its upload progress
 * and, after a failed upload, why; a custom cover, remove.
 */
export function VideoPicker({
  video,
  setVideo,
  progress,
  error,
  cover,
  setCover,
}: {
  video: VideoItem | null;
  setVideo: (next: VideoItem | null) => void;
  progress: number | null;
  error: string | null;
  cover: File | null;
  setCover: (file: File | null) => void;
}) {
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
      .then((thumbnail) => setVideo({ ...item, thumbnail, thumbnailUrl: URL.createObjectURL(thumbnail) }))
      .catch((failure: unknown) => toast.info(failure instanceof ThumbnailError ? `缩略图生成失败，但不影响视频上传（${failure.message}）` : '缩略图生成异常，但不影响视频上传'));
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
        <div className={`video-chosen ${error ? 'failed' : ''}`}>
          <div className="video-thumb">{shownCover ? <img src={shownCover} alt="视频封面" /> : <Icon name="play" size={30} />}</div>
          <div className="video-meta">
            <strong>{video.name}</strong>
            <span>{(video.size / 1024 / 1024).toFixed(1)} MB</span>
            {error && (
              <p className="field-error video-error" role="alert">
                上传失败：{error}
              </p>
            )}
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

