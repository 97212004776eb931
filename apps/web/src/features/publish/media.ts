/** Why a thumbnail could not be made (public-side.md §8); each only warns, the video uploads without one. */
export const THUMBNAIL_FAILURES = {
  load: '视频加载失败',
  timeout: '视频加载超时',
  blob: '无法生成缩略图Blob',
  draw: '绘制视频帧失败',
  seek: '生成视频缩略图失败',
} as const;

/** How long the thumbnail may take (public-side.md §9); a module-level setting so that a test can shorten it. */
export const THUMBNAIL_TIMEOUT = { ms: 10_000 };

/** A thumbnail failure the page expects, told apart from an exception it does not. */
export class ThumbnailError extends Error {}

/**
 * A frame of the video at 1 s as a JPEG (640×360 at most). Rejects with a ThumbnailError naming the step that failed:
 * the video does not load, not within 10 s, the frame cannot be drawn or encoded.
 */
export function videoThumbnail(file: File): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const finish = (outcome: Blob | keyof typeof THUMBNAIL_FAILURES) => {
      clearTimeout(timer);
      URL.revokeObjectURL(url);
      if (typeof outcome === 'string') reject(new ThumbnailError(THUMBNAIL_FAILURES[outcome]));
      else resolve(outcome);
    };
    const timer = setTimeout(() => finish('timeout'), THUMBNAIL_TIMEOUT.ms);
    video.muted = true;
    video.preload = 'metadata';
    video.onloadedmetadata = () => {
      video.currentTime = Math.min(1, (video.duration || 1) / 2);
    };
    video.onseeked = () => {
      const scale = Math.min(1, 640 / (video.videoWidth || 640), 360 / (video.videoHeight || 360));
      const canvas = document.createElement('canvas');
      canvas.width = Math.round((video.videoWidth || 640) * scale);
      canvas.height = Math.round((video.videoHeight || 360) * scale);
      const context = canvas.getContext('2d');
      if (!context) {
        finish('draw');
        return;
      }
      try {
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
      } catch {
        finish('draw');
        return;
      }
      canvas.toBlob((blob) => finish(blob ?? 'blob'), 'image/jpeg', 0.8);
    };
    // An error once the metadata is in is the seek to the frame failing, not the file.
    video.onerror = () => finish(video.readyState >= HTMLMediaElement.HAVE_METADATA ? 'seek' : 'load');
    video.src = url;
  });
}
