import { compressImage, compressImages, IMAGE_MESSAGES } from './images';

const big = (name: string) => new File([new Uint8Array(900 * 1024)], name, { type: 'image/png' });

describe('compressing a picked image (public-side.md §5, §8)', () => {
  const realBitmap = globalThis.createImageBitmap;
  afterEach(() => {
    globalThis.createImageBitmap = realBitmap;
  });

  it('keeps a file under 0.8 MB as it is, without reading it', async () => {
    globalThis.createImageBitmap = jest.fn();
    const small = new File([new Uint8Array(10)], 'small.png', { type: 'image/png' });
    expect(await compressImage(small)).toBe(small);
    expect(globalThis.createImageBitmap).not.toHaveBeenCalled();
  });

  it('says 读取文件失败 when the browser cannot read the file, 处理图片失败 when it cannot decode it', async () => {
    globalThis.createImageBitmap = jest.fn(async () => {
      throw new DOMException('gone', 'NotReadableError');
    });
    await expect(compressImage(big('gone.png'))).rejects.toThrow(IMAGE_MESSAGES.read);
    globalThis.createImageBitmap = jest.fn(async () => {
      throw new DOMException('bad', 'InvalidStateError');
    });
    await expect(compressImage(big('broken.png'))).rejects.toThrow('处理图片失败，请重试');
  });

  it('leaves out the files that fail, naming them', async () => {
    globalThis.createImageBitmap = jest.fn(async () => {
      throw new DOMException('bad', 'InvalidStateError');
    });
    const small = new File([new Uint8Array(10)], 'ok.png', { type: 'image/png' });
    const outcome = await compressImages([small, big('broken.png')]);
    expect(outcome.files).toEqual([small]);
    expect(outcome.messages).toEqual(['broken.png: 处理图片失败，请重试']);
    expect(IMAGE_MESSAGES.read).toBe('读取文件失败');
  });
});
