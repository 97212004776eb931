import { type FileHandle, open } from 'node:fs/promises';
import type { VideoProbe } from './video-tools';

/** The file cannot be a whole MP4/MOV: a box runs past its end, the index is missing or points outside the file. */
export class BrokenVideoError extends Error {}

/**
 * An index larger than this is left to ffprobe rather than read into memory (a 100 MB upload's `moov` is a few
 * hundred kilobytes to a few megabytes).
 */
const MAX_INDEX_BYTES = 16 * 1024 * 1024;

/** Sample-entry codes as ffprobe names their codecs; codes not listed here are left to ffprobe. */
const videoCodecs: Record<string, string> = {
  avc1: 'h264',
  avc3: 'h264',
  hvc1: 'hevc',
  hev1: 'hevc',
  vp08: 'vp8',
  vp09: 'vp9',
  av01: 'av1',
  mp4v: 'mpeg4',
};
const audioCodecs: Record<string, string> = {
  Opus: 'opus',
  '.mp3': 'mp3',
  'ac-3': 'ac3',
  'ec-3': 'eac3',
  alac: 'alac',
};
/** MPEG-4 object types of an `mp4a` entry's decoder config (ISO/IEC 14496-1, the MP4 registration authority). */
const mp4aObjectTypes: Record<number, string> = { 0x40: 'aac', 0x66: 'aac', 0x67: 'aac', 0x68: 'aac', 0x69: 'mp3', 0x6b: 'mp3' };

interface Box {
  type: string;
  /** Where the box's content starts and ends, in the buffer or file it was read from. */
  start: number;
  end: number;
}

/**
 * Probes an MP4 or MOV upload in this process instead of starting ffprobe (whose start alone loads some 200 shared
 * libraries): every top-level box must end within the file, `moov` must be there, and every chunk its tracks
 * index must start inside the file, so a clip cut off anywhere in its media data or index is refused. Duration
 * comes from `mvhd`, codecs and picture size from each track's `stsd`. Only `moov` is read into memory.
 *
 * Answers null where the answer is better left to ffprobe: fragmented files, an `mdat` running "to the end of the
 * file", an unusually large index, codecs not named here. Throws BrokenVideoError for a file that is not whole.
 */
export async function probeIsoBmff(path: string): Promise<VideoProbe | null> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    let moov: Box | null = null;
    for (let offset = 0; offset < size; ) {
      const box = await topLevelBox(file, offset, size);
      if (box === null) return null;
      if (box.type === 'moof') return null;
      if (box.type === 'moov') moov = box;
      offset = box.end;
    }
    if (!moov) throw new BrokenVideoError('no moov box');
    if (moov.end - moov.start > MAX_INDEX_BYTES) return null;
    const index = Buffer.alloc(moov.end - moov.start);
    await file.read(index, 0, index.length, moov.start);
    return describe(index, size);
  } finally {
    await file.close();
  }
}

async function topLevelBox(file: FileHandle, offset: number, fileSize: number): Promise<Box | null> {
  const header = Buffer.alloc(16);
  const { bytesRead } = await file.read(header, 0, 16, offset);
  if (bytesRead < 8) throw new BrokenVideoError(`box header cut off at ${offset}`);
  const declared = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  // A size of 0 means "to the end of the file", which no cut-off can contradict: ffprobe decides those.
  if (declared === 0) return null;
  let headerSize = 8;
  let boxSize = declared;
  if (declared === 1) {
    if (bytesRead < 16) throw new BrokenVideoError(`box header cut off at ${offset}`);
    boxSize = Number(header.readBigUInt64BE(8));
    headerSize = 16;
  }
  if (boxSize < headerSize) throw new BrokenVideoError(`box ${type} at ${offset} is ${boxSize} bytes`);
  if (offset + boxSize > fileSize) throw new BrokenVideoError(`box ${type} at ${offset} runs past the end of the file`);
  return { type, start: offset + headerSize, end: offset + boxSize };
}

/** The boxes inside `parent`, each checked to end within it. */
function children(buffer: Buffer, parent: Box): Box[] {
  const boxes: Box[] = [];
  for (let offset = parent.start; offset + 8 <= parent.end; ) {
    let boxSize = buffer.readUInt32BE(offset);
    let headerSize = 8;
    if (boxSize === 1) {
      if (offset + 16 > parent.end) throw new BrokenVideoError('box header cut off');
      boxSize = Number(buffer.readBigUInt64BE(offset + 8));
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = parent.end - offset;
    }
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    if (boxSize < headerSize || offset + boxSize > parent.end) throw new BrokenVideoError(`box ${type} runs past its parent`);
    boxes.push({ type, start: offset + headerSize, end: offset + boxSize });
    offset += boxSize;
  }
  return boxes;
}

const child = (buffer: Buffer, parent: Box, type: string) => children(buffer, parent).find((box) => box.type === type) ?? null;

function need(box: Box | null, what: string, bytes = 0): Box {
  if (!box || box.end - box.start < bytes) throw new BrokenVideoError(`no readable ${what}`);
  return box;
}

function describe(moov: Buffer, fileSize: number): VideoProbe | null {
  const root: Box = { type: 'moov', start: 0, end: moov.length };
  const mvhd = need(child(moov, root, 'mvhd'), 'mvhd', 32);
  const longForm = moov[mvhd.start] === 1;
  const timescale = moov.readUInt32BE(mvhd.start + (longForm ? 20 : 12));
  const duration = longForm ? Number(moov.readBigUInt64BE(mvhd.start + 24)) : moov.readUInt32BE(mvhd.start + 16);
  if (timescale === 0 || duration === 0) return null;

  let video: { codec: string; width: number; height: number } | null = null;
  let audioCodec: string | null = null;
  for (const trak of children(moov, root).filter((box) => box.type === 'trak')) {
    const mdia = need(child(moov, trak, 'mdia'), 'mdia');
    const hdlr = need(child(moov, mdia, 'hdlr'), 'hdlr', 12);
    const handler = moov.toString('latin1', hdlr.start + 8, hdlr.start + 12);
    const stbl = need(child(moov, need(child(moov, mdia, 'minf'), 'minf'), 'stbl'), 'stbl');
    checkChunkOffsets(moov, stbl, fileSize);
    if (handler !== 'vide' && handler !== 'soun') continue;
    const stsd = need(child(moov, stbl, 'stsd'), 'stsd', 8);
    const [entry] = children(moov, { type: 'stsd', start: stsd.start + 8, end: stsd.end });
    if (!entry) throw new BrokenVideoError('empty stsd');
    if (handler === 'vide' && !video) {
      const codec = videoCodecs[entry.type];
      if (!codec || entry.end - entry.start < 28) return null;
      video = { codec, width: moov.readUInt16BE(entry.start + 24), height: moov.readUInt16BE(entry.start + 26) };
    } else if (handler === 'soun' && audioCodec === null) {
      const codec = entry.type === 'mp4a' ? mp4aCodec(moov, entry) : audioCodecs[entry.type];
      if (!codec) return null;
      audioCodec = codec;
    }
  }
  if (!video) throw new BrokenVideoError('no video track');
  if (video.width === 0 || video.height === 0) return null;
  return { durationSeconds: duration / timescale, width: video.width, height: video.height, videoCodec: video.codec, audioCodec };
}

/** Every chunk a track indexes must start inside the file: a clip cut off in its media data fails here. */
function checkChunkOffsets(moov: Buffer, stbl: Box, fileSize: number): void {
  const stco = child(moov, stbl, 'stco');
  const co64 = child(moov, stbl, 'co64');
  const table = need(stco ?? co64, 'chunk offset table', 8);
  const width = stco ? 4 : 8;
  const count = moov.readUInt32BE(table.start + 4);
  if (table.start + 8 + count * width > table.end) throw new BrokenVideoError('chunk offset table cut off');
  for (let i = 0; i < count; i += 1) {
    const at = table.start + 8 + i * width;
    const offset = width === 4 ? moov.readUInt32BE(at) : Number(moov.readBigUInt64BE(at));
    if (offset >= fileSize) throw new BrokenVideoError('a chunk lies beyond the end of the file');
  }
}

/**
 * The codec of an `mp4a` entry from its decoder config (`esds`, found after the audio sample entry's 28 bytes, or
 * inside a QuickTime `wave` box): AAC and MP3 share the entry type and differ only there.
 */
function mp4aCodec(moov: Buffer, entry: Box): string | null {
  if (entry.end - entry.start < 28) return null;
  const version = moov.readUInt16BE(entry.start + 8);
  // QuickTime sound descriptions version 1 and 2 carry 16 and 36 more bytes before their boxes.
  const boxesAt = entry.start + 28 + (version === 1 ? 16 : version === 2 ? 36 : 0);
  if (boxesAt > entry.end) return null;
  const boxes = children(moov, { type: 'mp4a', start: boxesAt, end: entry.end });
  const wave = boxes.find((box) => box.type === 'wave');
  const esds = boxes.find((box) => box.type === 'esds') ?? (wave ? child(moov, wave, 'esds') : null);
  if (!esds) return null;
  const objectType = decoderObjectType(moov, esds.start + 4, esds.end);
  return objectType === null ? null : (mp4aObjectTypes[objectType] ?? null);
}

/** The objectTypeIndication of the DecoderConfigDescriptor (tag 4) inside an ES_Descriptor (tag 3). */
function decoderObjectType(buffer: Buffer, start: number, end: number): number | null {
  let offset = start;
  const descriptor = (): { tag: number; length: number } | null => {
    if (offset >= end) return null;
    const tag = buffer[offset];
    offset += 1;
    let length = 0;
    for (let i = 0; i < 4 && offset < end; i += 1) {
      const byte = buffer[offset];
      offset += 1;
      length = (length << 7) | (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    return { tag, length };
  };
  const es = descriptor();
  if (es?.tag !== 3 || offset + 3 > end) return null;
  const flags = buffer[offset + 2];
  offset += 3;
  if (flags & 0x80) offset += 2;
  if (flags & 0x40) offset += 1 + (buffer[offset] ?? 0);
  if (flags & 0x20) offset += 2;
  const config = descriptor();
  return config?.tag === 4 && offset < end ? buffer[offset] : null;
}
