import { ApiError, TIMEOUTS } from '../../../lib/api/client';
import { uploadCover, uploadImages } from './publish';

const realFetch = globalThis.fetch;
const sent: { path: string; files: string[] }[] = [];

function server(status: number, body: unknown) {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const form = request.method === 'POST' && request.headers.get('Content-Type')?.startsWith('multipart/') ? await request.formData() : null;
    sent.push({ path: new URL(request.url).pathname, files: form ? form.getAll('files').map((file) => (file as File).name) : [] });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
}

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const image = (name: string) => ({ url: `/api/files/images/${name}.webp`, originalName: name, size: 1, width: 1, height: 1, aspectRatio: 1, blurhash: '', thumbnailUrl: '' });

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return (error as ApiError).message;
}

describe('uploading a batch of images (public-side.md §8)', () => {
  beforeAll(() => {
    Object.assign(globalThis, { location: new URL('http://app.test/') });
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    sent.length = 0;
  });

  it('says all were uploaded when none fails', async () => {
    server(200, { code: 200, data: { uploaded: [image('a'), image('b')], errors: [] } });
    const batch = await uploadImages([png('a.png'), png('b.png')]);
    expect(batch).toEqual({ urls: ['/api/files/images/a.webp', '/api/files/images/b.webp'], reasons: [null, null], uploaded: 2, failed: 0, message: '所有图片上传成功' });
    expect(sent).toEqual([{ path: '/api/upload/multiple', files: ['a.png', 'b.png'] }]);
  });

  it('keeps the good ones of a partial batch, in their places, and counts both', async () => {
    server(200, { code: 200, data: { uploaded: [image('a'), image('c')], errors: [{ file: 'b.png', reason: '图片文件已损坏' }] } });
    const batch = await uploadImages([png('a.png'), png('b.png'), png('c.png')]);
    expect(batch.urls).toEqual(['/api/files/images/a.webp', null, '/api/files/images/c.webp']);
    expect(batch.reasons).toEqual([null, '图片文件已损坏', null]);
    expect(batch.message).toBe('2张图片上传成功，1张上传失败（b.png: 图片文件已损坏）');
  });

  it('fails when none was uploaded, with the server message or the spec one', async () => {
    server(400, { code: 400, message: '上传失败，没有成功上传的图片', data: { uploaded: [], errors: [{ file: 'a.png', reason: 'x' }] } });
    expect(await failure(uploadImages([png('a.png')]))).toBe('上传失败，没有成功上传的图片');
    server(200, { code: 200, data: { uploaded: [], errors: [{ file: 'a.png', reason: 'x' }] } });
    expect(await failure(uploadImages([png('a.png')]))).toBe('上传失败，没有成功上传的图片');
  });

  it('asks for a file when there is none, and times out with the upload message', async () => {
    expect(await failure(uploadImages([]))).toBe('请选择要上传的文件');
    const short = { ...TIMEOUTS };
    TIMEOUTS.upload = 30;
    globalThis.fetch = jest.fn((_input: RequestInfo | URL, init?: RequestInit) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof fetch;
    expect(await failure(uploadImages([png('a.png')]))).toBe('上传超时，请检查网络连接或稍后重试');
    Object.assign(TIMEOUTS, short);
  });
});

describe("uploading a video's cover", () => {
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('says 封面上传失败，请重试 when the upload fails', async () => {
    server(500, { code: 500, message: 'boom' });
    expect(await failure(uploadCover(png('cover.png')))).toBe('封面上传失败，请重试');
    globalThis.fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await failure(uploadCover(png('cover.png')))).toBe('封面上传失败，请重试');
  });
});
