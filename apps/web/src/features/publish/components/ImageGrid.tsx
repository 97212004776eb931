import { type ChangeEvent, type KeyboardEvent, useRef, useState } from 'react';
import { Spinner } from '../../../components/Feedback';
import { Icon } from '../../../components/Icon';
import { compressImage, imageProblem, imageSlots } from '../../../lib/images';
import { toast } from '../../../lib/toast';
import { useLongPressReorder } from '../hooks/useLongPressReorder';
import { type ImageItem, newImageId } from '../publish-form';
import { LIMITS, moveItem } from '../publish-rules';
import { TextImageModal } from './TextImageModal';

/** The images of an image note: add (up to nine, compressed), remove, reorder by drag, keys or long press; 文字配图. */
export function ImageGrid({ images, setImages }: { images: ImageItem[]; setImages: (next: ImageItem[]) => void }) {
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
    setImages([...images, ...compressed.map((file) => ({ id: newImageId(), file, preview: URL.createObjectURL(file), url: null }))]);
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

