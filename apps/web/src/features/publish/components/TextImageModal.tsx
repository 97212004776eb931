import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Modal } from '../../../components/Modal';
import { toast } from '../../../lib/toast';
import { bannedWordsQuery } from '../api/publish';
import { fontSizeFor, hasBannedWord, lineHeightFor, TEXT_COLOURS, TEXT_FONTS, TEXT_IMAGE, wrapText } from '../text-image';

type Paint = (ctx: CanvasRenderingContext2D, width: number, height: number) => void;

function gradient(stops: string[], angle: 'down' | 'diagonal' = 'down'): Paint {
  return (ctx, width, height) => {
    const fill = angle === 'down' ? ctx.createLinearGradient(0, 0, 0, height) : ctx.createLinearGradient(0, 0, width, height);
    stops.forEach((colour, index) => fill.addColorStop(index / (stops.length - 1), colour));
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, width, height);
  };
}

/** The eight bundled templates, drawn on the canvas itself so they need no download and scale to any size. */
const TEMPLATES: { id: number; name: string; paint: Paint }[] = [
  { id: 1, name: '纯白', paint: gradient(['#ffffff', '#f6f6f8']) },
  { id: 2, name: '樱花粉', paint: gradient(['#ffe1ea', '#ffc2d4', '#ff9fb8']) },
  { id: 3, name: '薄荷绿', paint: gradient(['#e3fbef', '#b7f0d4', '#8fdcb8'], 'diagonal') },
  { id: 4, name: '天空蓝', paint: gradient(['#dff1ff', '#a9d6ff', '#7cb8f7']) },
  {
    id: 5,
    name: '奶油波点',
    paint: (ctx, width, height) => {
      ctx.fillStyle = '#fff6dc';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#ffe3a3';
      const step = width / 8;
      for (let y = step / 2; y < height; y += step) {
        for (let x = ((y / step) % 2) * (step / 2) + step / 4; x < width; x += step) {
          ctx.beginPath();
          ctx.arc(x, y, step / 7, 0, Math.PI * 2);
          ctx.fill();
        }
      }
    },
  },
  { id: 6, name: '晚霞', paint: gradient(['#5b4bd8', '#c054b9', '#ff8a6b', '#ffc371']) },
  {
    id: 7,
    name: '笔记本',
    paint: (ctx, width, height) => {
      ctx.fillStyle = '#fffdf7';
      ctx.fillRect(0, 0, width, height);
      ctx.strokeStyle = '#dbe6f3';
      ctx.lineWidth = width / 400;
      for (let y = height / 12; y < height; y += height / 20) {
        ctx.beginPath();
        ctx.moveTo(0, y);
        ctx.lineTo(width, y);
        ctx.stroke();
      }
      ctx.strokeStyle = '#f4a7b4';
      ctx.beginPath();
      ctx.moveTo(width * 0.12, 0);
      ctx.lineTo(width * 0.12, height);
      ctx.stroke();
    },
  },
  {
    id: 8,
    name: '星空',
    paint: (ctx, width, height) => {
      gradient(['#0b1030', '#1c2463', '#3a2f7a'])(ctx, width, height);
      ctx.fillStyle = 'rgba(255,255,255,0.85)';
      // A fixed pseudo-random field, so the same template always looks the same.
      let seed = 7;
      const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
      for (let i = 0; i < 70; i++) {
        ctx.beginPath();
        ctx.arc(next() * width, next() * height, (next() * 1.6 + 0.3) * (width / 400), 0, Math.PI * 2);
        ctx.fill();
      }
    },
  },
];

interface Look {
  text: string;
  template: number | null;
  font: number;
  colour: string;
  stroke: string;
}

function draw(canvas: HTMLCanvasElement, look: Look, scale: number) {
  const { width, height, padding } = TEXT_IMAGE;
  canvas.width = width * scale;
  canvas.height = height * scale;
  const ctx = canvas.getContext('2d');
  const template = TEMPLATES.find((each) => each.id === look.template);
  if (!ctx || !template) return;
  ctx.scale(scale, scale);
  template.paint(ctx, width, height);
  const family = TEXT_FONTS[look.font]?.[1] ?? 'sans-serif';
  // The size follows the author's own lines; lines still too wide at that size are broken again.
  const size = fontSizeFor(look.text.split('\n'));
  ctx.font = `bold ${size}px ${family}`;
  const lines = wrapText(look.text, width - padding * 2, (part) => ctx.measureText(part).width);
  const lineHeight = lineHeightFor(size);
  const top = height / 2 - ((lines.length - 1) * lineHeight) / 2;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = TEXT_IMAGE.stroke * 2;
  ctx.strokeStyle = look.stroke;
  ctx.fillStyle = look.colour;
  lines.forEach((line, index) => {
    const y = top + index * lineHeight;
    if (look.stroke !== 'transparent') ctx.strokeText(line, width / 2, y);
    ctx.fillText(line, width / 2, y);
  });
}

/**
 * The text-image generator (public-side.md §2, §5, §9): text up to 200 characters on one of eight templates in a
 * 400×600 canvas, with font, colour and stroke; 上传 adds the PNG to the note's images. Text holding a banned word
 * closes the dialog without an image.
 */
export function TextImageModal({ onDone, onClose }: { onDone: (file: File) => void; onClose: () => void }) {
  const preview = useRef<HTMLCanvasElement>(null);
  const [look, setLook] = useState<Look>({ text: '', template: null, font: 0, colour: '#000000', stroke: '#ffffff' });
  const [busy, setBusy] = useState(false);
  const ready = look.text.trim().length > 0 && look.template !== null;

  const client = useQueryClient();
  useEffect(() => {
    void client.prefetchQuery(bannedWordsQuery());
  }, [client]);
  useEffect(() => {
    if (ready && preview.current) draw(preview.current, look, Math.min(2, window.devicePixelRatio || 1));
  }, [look, ready]);

  const set = (change: Partial<Look>) => setLook((before) => ({ ...before, ...change }));

  const upload = async () => {
    if (!ready || busy) return;
    setBusy(true);
    try {
      if (hasBannedWord(look.text, await client.fetchQuery(bannedWordsQuery()))) {
        toast.error('内容包含违规词汇，请修改后重试');
        onClose();
        return;
      }
      const canvas = document.createElement('canvas');
      draw(canvas, look, 1);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png', 0.9));
      if (!blob) throw new Error('toBlob');
      onDone(new File([blob], `text-image-${Date.now()}.png`, { type: 'image/png' }));
      toast.success('文字配图生成成功');
      onClose();
    } catch {
      toast.error('图片生成失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title="文字配图" onClose={onClose} width={760} className="text-image-modal">
      <div className="text-image">
        <div className="text-image-preview">
          {ready ? <canvas ref={preview} aria-label="文字配图预览" role="img" /> : <p className="muted">请输入文字并选择模板</p>}
        </div>
        <div className="text-image-controls">
          <label className="field">
            <span className="counted">
              <textarea value={look.text} rows={4} maxLength={TEXT_IMAGE.maxText} placeholder="输入想说的话，回车换行" aria-label="配图文字" onChange={(event) => set({ text: event.target.value })} />
              <em>
                {look.text.length}/{TEXT_IMAGE.maxText}
              </em>
            </span>
          </label>
          <div className="text-image-row">
            <span className="field-label">模板</span>
            <div className="template-list" role="radiogroup" aria-label="模板">
              {TEMPLATES.map((template) => (
                <button key={template.id} type="button" role="radio" aria-checked={look.template === template.id} aria-label={template.name} title={template.name} className={`template ${look.template === template.id ? 'active' : ''}`} onClick={() => set({ template: template.id })}>
                  <TemplateThumb paint={template.paint} />
                  <span>{template.name}</span>
                </button>
              ))}
            </div>
          </div>
          <label className="text-image-row">
            <span className="field-label">字体</span>
            <select className="text-image-select" value={look.font} onChange={(event) => set({ font: Number(event.target.value) })} aria-label="字体">
              {TEXT_FONTS.map(([name], index) => (
                <option key={name} value={index}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <ColourRow label="文字颜色" value={look.colour} onChange={(colour) => set({ colour })} />
          <ColourRow label="描边颜色" value={look.stroke} onChange={(stroke) => set({ stroke })} allowNone />
          <div className="text-image-actions">
            <button type="button" className="button ghost" onClick={onClose}>
              取消
            </button>
            <button type="button" className="button primary" disabled={!ready || busy} onClick={() => void upload()}>
              {busy ? '生成中...' : '上传'}
            </button>
          </div>
        </div>
      </div>
    </Modal>
  );
}

function TemplateThumb({ paint }: { paint: Paint }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (element && ctx) paint(ctx, element.width, element.height);
  }, [paint]);
  return <canvas ref={canvas} width={80} height={120} aria-hidden="true" />;
}

function ColourRow({ label, value, onChange, allowNone = false }: { label: string; value: string; onChange: (colour: string) => void; allowNone?: boolean }) {
  return (
    <div className="text-image-row">
      <span className="field-label">{label}</span>
      <div className="colour-list" role="radiogroup" aria-label={label}>
        {allowNone && (
          <button type="button" role="radio" aria-checked={value === 'transparent'} aria-label="无描边" title="无描边" className={`colour none ${value === 'transparent' ? 'active' : ''}`} onClick={() => onChange('transparent')} />
        )}
        {TEXT_COLOURS.map((colour) => (
          <button key={colour} type="button" role="radio" aria-checked={value === colour} aria-label={`${label} ${colour}`} className={`colour ${value === colour ? 'active' : ''}`} style={{ background: colour }} onClick={() => onChange(colour)} />
        ))}
      </div>
    </div>
  );
}
