import { type ChangeEvent, type KeyboardEvent, useRef, useState } from 'react';
import { Spinner } from '../../../components/Feedback';
import { Icon } from '../../../components/Icon';
import { toast } from '../../../lib/toast';
import { useLongPressReorder } from '../hooks/useLongPressReorder';
import type { ImageItem } from '../publish-form';
import { LIMITS, moveItem } from '../publish-rules';
import { TextImageModal } from './TextImageModal';

/** Why the delete control of an image note's only image is disabled (public-side.md §2: the last image stays). */
export const LAST_IMAGE_REASON = '图文笔记至少保留一张图片';

/**
 * The images of an image note: add (up to nine, through `add`), remove (never the last one), reorder by drag, keys
 * or long press; 文字配图.
 */
export function ImageGrid({ images, setImages, add, busy }: { images: ImageItem[]; setImages: (next: ImageItem[]) => void; add: (files: File[]) => Promise<boolean>; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [writing, setWriting] = useState(false);
  useLongPressReorder(grid, images, setImages, setDragging);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    void add(files);
  };

  const addTextImage = async (file: File) => {
    if (!(await add([file]))) toast.error('添加图片失败，请重试');
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
          {/* A refused file may be no picture at all: its tile stays plain rather than show a broken image. */}
          <img src={image.url ?? image.preview} alt={`第 ${index + 1} 张图片`} draggable={false} onError={(event) => event.currentTarget.classList.add('broken')} />
          {image.refused ? (
            <span className="upload-cover-tag" title={image.refused}>
              上传失败
            </span>
          ) : (
            index === 0 && <span className="upload-cover-tag">封面</span>
          )}
          <button
            type="button"
            className="upload-remove"
            aria-label={`删除第 ${index + 1} 张图片`}
            disabled={images.length === 1}
            title={images.length === 1 ? LAST_IMAGE_REASON : undefined}
            onClick={() => setImages(images.filter((each) => each.id !== image.id))}
          >
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
      <input ref={input} type="file" accept="image/jpeg,image/png,image/webp" multiple hidden onChange={pick} aria-label="选择图片" />
      {writing && <TextImageModal onDone={(file) => void addTextImage(file)} onClose={() => setWriting(false)} />}
    </div>
  );
}

