/** Image limits for notes and comments (public-side.md §5, §9). */
export const IMAGE_LIMITS = {
  images: 9,
  imageBytes: 5 * 1024 * 1024,
  compressAbove: 0.8 * 1024 * 1024,
  compressSide: 1200,
  compressQuality: 0.4,
} as const;

export const IMAGE_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'];

/** Why an image cannot be added, or null (the spec's messages). */
export function imageProblem(file: { type: string; size: number }): string | null {
  if (!file.type.startsWith('image/')) return '请选择图片文件';
  if (!IMAGE_TYPES.includes(file.type)) return '不支持的文件类型';
  if (file.size > IMAGE_LIMITS.imageBytes) return `图片大小为 ${(file.size / 1024 / 1024).toFixed(1)}MB，超过 5MB 限制，请选择更小的图片`;
  return null;
}

/** How many of `adding` images fit next to `present`, and the message when some do not. */
export function imageSlots(present: number, adding: number): { take: number; message: string | null } {
  const free = Math.max(0, IMAGE_LIMITS.images - present);
  if (adding <= free) return { take: adding, message: null };
  return { take: free, message: free === 0 ? `最多只能上传${IMAGE_LIMITS.images}张图片` : `最多只能再添加${free}张图片` };
}

/** The size a compressed image is drawn at: the longer side at most 1200 px, never enlarged. */
export function compressedSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, IMAGE_LIMITS.compressSide / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** The spec's messages for a picked image the browser cannot use (public-side.md §8). */
export const IMAGE_MESSAGES = { read: '读取文件失败', process: '处理图片失败，请重试' } as const;

/**
 * An image over 0.8 MB redrawn so neither side exceeds 1200 px, as JPEG at quality 0.4 (public-side.md §5); a smaller
 * one is kept as it is, and so is one whose redrawn copy is not smaller. A file the browser cannot read fails with
 * 读取文件失败, one it cannot decode with 处理图片失败，请重试.
 */
export async function compressImage(file: File): Promise<File> {
  if (file.size <= IMAGE_LIMITS.compressAbove || typeof createImageBitmap === 'undefined') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch (error) {
    throw new Error(error instanceof DOMException && error.name === 'NotReadableError' ? IMAGE_MESSAGES.read : IMAGE_MESSAGES.process);
  }
  const size = compressedSize(bitmap.width, bitmap.height);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', IMAGE_LIMITS.compressQuality));
  if (!blob || blob.size >= file.size) return file;
  return new File([blob], file.name.replace(/\.\w+$/, '') + '.jpg', { type: 'image/jpeg' });
}

/** The accepted files compressed; one that fails is left out, with its name and reason among the messages. */
export async function compressImages(files: File[]): Promise<{ files: File[]; messages: string[] }> {
  const outcomes = await Promise.allSettled(files.map(compressImage));
  const ready: File[] = [];
  const messages: string[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') ready.push(outcome.value);
    else messages.push(`${files[index]?.name}: ${outcome.reason instanceof Error ? outcome.reason.message : IMAGE_MESSAGES.process}`);
  });
  return { files: ready, messages };
}
