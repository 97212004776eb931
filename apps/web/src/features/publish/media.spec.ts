import { THUMBNAIL_FAILURES, THUMBNAIL_TIMEOUT, ThumbnailError, videoThumbnail } from './media';

/** A stand-in for the page's video and canvas elements, each step of which a test makes fail. */
function fakePage(options: { context?: boolean; draw?: boolean; blob?: boolean } = {}) {
  const video = { readyState: 0, duration: 3, videoWidth: 1280, videoHeight: 720, currentTime: 0, muted: false, preload: '', src: '' } as Record<string, unknown> & {
    onloadedmetadata?: () => void;
    onseeked?: () => void;
    onerror?: () => void;
  };
  const canvas = {
    width: 0,
    height: 0,
    getContext: () =>
      options.context === false
        ? null
        : {
            drawImage: () => {
              if (options.draw === false) throw new Error('tainted');
            },
          },
    toBlob: (done: (blob: Blob | null) => void) => done(options.blob === false ? null : new Blob(['jpeg'])),
  };
  Object.assign(globalThis, {
    document: { createElement: (tag: string) => (tag === 'video' ? video : canvas) },
    HTMLMediaElement: { HAVE_METADATA: 1 },
  });
  URL.createObjectURL = () => 'blob:video';
  URL.revokeObjectURL = () => undefined;
  return { video, canvas };
}

async function reason(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ThumbnailError);
  return (error as Error).message;
}

const file = new File([new Uint8Array(4)], 'clip.mp4', { type: 'video/mp4' });

describe('the video thumbnail (public-side.md §5, §8)', () => {
  const timeout = THUMBNAIL_TIMEOUT.ms;
  afterEach(() => {
    THUMBNAIL_TIMEOUT.ms = timeout;
  });

  it('is the frame at 1 s, at most 640×360', async () => {
    const { video, canvas } = fakePage();
    const thumbnail = videoThumbnail(file);
    video.onloadedmetadata?.();
    expect(video.currentTime).toBe(1);
    video.onseeked?.();
    expect(await thumbnail).toBeInstanceOf(Blob);
    expect([canvas.width, canvas.height]).toEqual([640, 360]);
  });

  it('names the step that failed: loading, the 10 s limit, drawing, encoding, seeking', async () => {
    let page = fakePage();
    let thumbnail = videoThumbnail(file);
    page.video.onerror?.();
    expect(await reason(thumbnail)).toBe(THUMBNAIL_FAILURES.load);

    fakePage();
    THUMBNAIL_TIMEOUT.ms = 10;
    expect(await reason(videoThumbnail(file))).toBe('视频加载超时');
    THUMBNAIL_TIMEOUT.ms = timeout;

    page = fakePage({ draw: false });
    thumbnail = videoThumbnail(file);
    page.video.onseeked?.();
    expect(await reason(thumbnail)).toBe('绘制视频帧失败');

    page = fakePage({ context: false });
    thumbnail = videoThumbnail(file);
    page.video.onseeked?.();
    expect(await reason(thumbnail)).toBe('绘制视频帧失败');

    page = fakePage({ blob: false });
    thumbnail = videoThumbnail(file);
    page.video.onseeked?.();
    expect(await reason(thumbnail)).toBe('无法生成缩略图Blob');

    page = fakePage();
    thumbnail = videoThumbnail(file);
    page.video.readyState = 1;
    page.video.onerror?.();
    expect(await reason(thumbnail)).toBe('生成视频缩略图失败');
  });
});
