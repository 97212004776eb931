import { formatOf } from './file-format';

const bytes = (hex: string, ascii = '') => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(ascii, 'latin1')]);

describe('formatOf', () => {
  it.each([
    ['JPEG', bytes('ffd8ffe0'), 'jpg'],
    ['PNG', bytes('89504e470d0a1a0a'), 'png'],
    ['GIF', Buffer.from('GIF89a'), 'gif'],
    ['WebP', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'), 'webp'],
    ['MP4', bytes('00000020', 'ftypisom'), 'mp4'],
    ['MOV (QuickTime brand)', bytes('00000014', 'ftypqt  '), 'mov'],
    ['MOV (old QuickTime, no ftyp)', bytes('00000008', 'wide'), 'mov'],
    ['AVI', Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1'), 'avi'],
    ['WMV', bytes('3026b2758e66cf11a6d900aa0062ce6c'), 'wmv'],
    ['FLV', bytes('464c5601'), 'flv'],
    ['WebM', bytes('1a45dfa3', '\x9f\x42\x86\x81\x01\x42\x82\x84webm'), 'webm'],
  ])('recognises %s', (_, head, extension) => {
    expect(formatOf(head)?.extension).toBe(extension);
  });

  it.each([
    ['a shell script', Buffer.from('#!/bin/sh\n')],
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['a Matroska file that is not WebM', bytes('1a45dfa3', '\x42\x82\x88matroska')],
    ['a WAV file (RIFF, but not WebP or AVI)', Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1')],
    ['an empty file', Buffer.alloc(0)],
  ])('refuses %s', (_, head) => {
    expect(formatOf(head)).toBeNull();
  });
});
