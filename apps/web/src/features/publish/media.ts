import { useSession } from '../../lib/session';
import { compressedSize, LIMITS } from './publish-rules';

/**
 * An image over 0.8 MB redrawn so neither side exceeds 1200 px, as JPEG at quality 0.4 (public-side.md §5);
 * a smaller one, or one the browser cannot decode, is kept as it is.
 */
export async function compressImage(file: File): Promise<File> {
  if (file.size <= LIMITS.compressAbove || typeof createImageBitmap === 'undefined') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const size = compressedSize(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, size.width, size.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', LIMITS.compressQuality));
    if (!blob || blob.size >= file.size) return file;
    return new File([blob], file.name.replace(/\.\w+$/, '') + '.jpg', { type: 'image/jpeg' });
  } catch {
    return file;
  }
}

/** A frame of the video at 1 s as a JPEG (640×360 at most), or null after 10 s or on any failure. */
export function videoThumbnail(file: File): Promise<Blob | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    const finish = (blob: Blob | null) => {
      clearTimeout(timer);
      URL.revokeObjectURL(url);
      resolve(blob);
    };
    const timer = setTimeout(() => finish(null), 10_000);
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
      try {
        canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
        canvas.toBlob((blob) => finish(blob), 'image/jpeg', 0.8);
      } catch {
        finish(null);
      }
    };
    video.onerror = () => finish(null);
    video.src = url;
  });
}

/** Uploads a video (and its thumbnail) with the percent sent, through XHR since fetch reports no upload progress. */
export function uploadVideo(file: File, thumbnail: Blob | null, onProgress: (percent: number) => void): Promise<{ url: string; coverUrl: string | null }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('file', file);
    if (thumbnail) form.append('thumbnail', thumbnail, 'thumbnail.jpg');
    const request = new XMLHttpRequest();
    request.open('POST', '/api/upload/video');
    request.timeout = 300_000;
    const token = useSession.getState().token;
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    request.onload = () => {
      try {
        const body = JSON.parse(request.responseText) as { data?: { url: string; coverUrl: string | null }; message?: string };
        if (request.status >= 200 && request.status < 300 && body.data) resolve(body.data);
        else reject(new Error(body.message || '视频上传失败'));
      } catch {
        reject(new Error('视频上传失败'));
      }
    };
    request.onerror = () => reject(new Error('视频上传失败，请重试'));
    request.ontimeout = () => reject(new Error('上传超时，请检查网络连接或稍后重试'));
    request.send(form);
  });
}
