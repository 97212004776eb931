import { useRef, useState } from 'react';
import { acceptImages } from '../../../lib/comment-images';
import { compressImages } from '../../../lib/images';
import { toast } from '../../../lib/toast';
import { type ImageItem, newImageId } from '../publish-form';

/**
 * Adding images to the note, whether picked, pasted into the text or drawn as a text image: the shared validator
 * (count, type, size), then compression; every refusal shows its message. `add` answers whether any image was added.
 */
export function useAddImages(images: ImageItem[], setImages: (next: ImageItem[]) => void) {
  const [busy, setBusy] = useState(false);
  const latest = useRef(images);
  latest.current = images;

  const add = async (files: File[]): Promise<boolean> => {
    if (files.length === 0) return false;
    const { accepted, messages } = acceptImages(latest.current.length, files);
    for (const message of messages) toast.error(message);
    if (accepted.length === 0) return false;
    setBusy(true);
    const compressed = await compressImages(accepted);
    setBusy(false);
    for (const message of compressed.messages) toast.error(message);
    if (compressed.files.length === 0) return false;
    setImages([...latest.current, ...compressed.files.map((file) => ({ id: newImageId(), file, preview: URL.createObjectURL(file), url: null }))]);
    return true;
  };
  return { add, busy };
}
