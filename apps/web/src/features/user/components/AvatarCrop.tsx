import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { Modal } from '../../../components/Modal';

/** The crop square takes 65% of the image's shorter side; the result is 200×200 JPEG at quality 0.9 (§5, §9). */
const CROP_SHARE = 0.65;
const OUTPUT_PX = 200;
const VIEW_PX = 300;

/** The square avatar crop: drag the square over the picture, then confirm. */
export function AvatarCrop({ file, onDone, onClose }: { file: File; onDone: (blob: Blob) => void; onClose: () => void }) {
  const [url] = useState(() => URL.createObjectURL(file));
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [box, setBox] = useState({ x: 0, y: 0, size: 0 });
  const drag = useRef<{ x: number; y: number; box: typeof box } | null>(null);

  useEffect(() => () => URL.revokeObjectURL(url), [url]);

  const scale = image ? VIEW_PX / Math.max(image.naturalWidth, image.naturalHeight) : 1;
  const shown = image ? { width: image.naturalWidth * scale, height: image.naturalHeight * scale } : { width: VIEW_PX, height: VIEW_PX };

  const loaded = (element: HTMLImageElement) => {
    setImage(element);
    const s = VIEW_PX / Math.max(element.naturalWidth, element.naturalHeight);
    const width = element.naturalWidth * s;
    const height = element.naturalHeight * s;
    const size = Math.min(width, height) * CROP_SHARE;
    setBox({ x: (width - size) / 2, y: (height - size) / 2, size });
  };

  const down = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, box };
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const x = Math.min(Math.max(0, start.box.x + event.clientX - start.x), shown.width - start.box.size);
    const y = Math.min(Math.max(0, start.box.y + event.clientY - start.y), shown.height - start.box.size);
    setBox({ ...start.box, x, y });
  };

  const confirm = () => {
    if (!image) return;
    const canvas = document.createElement('canvas');
    canvas.width = OUTPUT_PX;
    canvas.height = OUTPUT_PX;
    canvas.getContext('2d')?.drawImage(image, box.x / scale, box.y / scale, box.size / scale, box.size / scale, 0, 0, OUTPUT_PX, OUTPUT_PX);
    canvas.toBlob((blob) => blob && onDone(blob), 'image/jpeg', 0.9);
  };

  return (
    <Modal title="裁剪头像" onClose={onClose} width={380}>
      <div className="crop-stage" style={shown}>
        <img src={url} alt="待裁剪的头像" onLoad={(event) => loaded(event.currentTarget)} style={shown} draggable={false} />
        {image && <div className="crop-box" style={{ left: box.x, top: box.y, width: box.size, height: box.size }} onPointerDown={down} onPointerMove={move} onPointerUp={() => (drag.current = null)} aria-label="裁剪区域" />}
      </div>
      <div className="confirm-actions">
        <button type="button" className="button ghost" onClick={onClose}>
          取消
        </button>
        <button type="button" className="button primary" onClick={confirm} disabled={!image}>
          确定
        </button>
      </div>
    </Modal>
  );
}
