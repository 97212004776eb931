import { adminCall, adminUpload } from '../../admin/api';
import createClient from 'openapi-fetch';
import { ApiError, authFetch, call, failingAs, TIMEOUTS, upload, UPLOAD_MESSAGES } from './client';
import type { paths } from './schema';

/** A server that never answers: the request waits until its signal aborts it, as the browser's fetch does. */
function silentServer() {
  const seen: string[] = [];
  globalThis.fetch = jest.fn((input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new URL((input as Request).url).pathname);
    return new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
  }) as typeof fetch;
  return seen;
}

function answering(status: number, body: string) {
  globalThis.fetch = jest.fn(async () => new Response(body, { status, headers: { 'Content-Type': 'application/json' } })) as typeof fetch;
}

const realFetch = globalThis.fetch;
/** The app's client as it runs in the browser, with the page's origin spelled out (Node has no page to resolve '/'). */
const api = createClient<paths>({ baseUrl: 'http://app.test/', fetch: authFetch });
const realTimeouts = { ...TIMEOUTS };
const imageForm = () => {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
  return form;
};

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the client timeouts (public-side.md §7, §9)', () => {
  beforeAll(() => {
    Object.assign(globalThis, { location: new URL('http://app.test/') });
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
    Object.assign(TIMEOUTS, realTimeouts);
  });

  it('waits 60 s for a call, 60 s for a quick upload and 300 s for a video', () => {
    expect(realTimeouts).toEqual({ request: 60_000, upload: 60_000, video: 300_000 });
  });

  it('abandons a call nothing answers once its timeout passes, as the network message', async () => {
    TIMEOUTS.request = 30;
    const seen = silentServer();
    const started = Date.now();
    const error = await failure(call(api.GET('/api/tags', {})));
    expect(error.message).toBe('网络连接失败，请检查网络设置');
    expect(error.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen).toEqual(['/api/tags']);
  });

  it('abandons a quick upload nothing answers with the upload timeout message', async () => {
    TIMEOUTS.upload = 30;
    silentServer();
    expect((await failure(upload('/api/upload/image', imageForm()))).message).toBe(UPLOAD_MESSAGES.timeout);
  });

  it("abandons the console's calls and uploads the same way", async () => {
    TIMEOUTS.request = 30;
    silentServer();
    expect((await failure(adminCall('GET', '/api/admin/users'))).message).toBe('网络连接失败，请检查网络设置');
    // A video waits its own 300 s, not the request's 60 s.
    TIMEOUTS.request = 30;
    TIMEOUTS.video = 200;
    const started = Date.now();
    expect((await failure(adminUpload('video', new File([new Uint8Array([1])], 'a.mp4', { type: 'video/mp4' })))).message).toBe(UPLOAD_MESSAGES.timeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    TIMEOUTS.upload = 30;
    expect((await failure(adminUpload('image', new File([new Uint8Array([1])], 'a.png', { type: 'image/png' })))).message).toBe(UPLOAD_MESSAGES.timeout);
  });
});

describe('the upload messages (public-side.md §8)', () => {
  beforeAll(() => {
    Object.assign(globalThis, { location: new URL('http://app.test/') });
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('asks for a file when the form holds none', async () => {
    const form = new FormData();
    form.append('note', 'text only');
    expect((await failure(upload('/api/upload/image', form))).message).toBe('请选择要上传的文件');
  });

  it("shows the server's reason, or 上传失败，请重试 when an answer carries no image", async () => {
    answering(400, JSON.stringify({ code: 400, message: '不支持的文件类型' }));
    expect((await failure(upload('/api/upload/image', imageForm()))).message).toBe('上传失败: 不支持的文件类型');
    answering(200, JSON.stringify({ code: 200, message: 'ok' }));
    expect((await failure(upload('/api/upload/image', imageForm()))).message).toBe('上传失败，请重试');
  });

  it('calls an answer that is not the envelope (a proxy error page) an HTTP error with its status', async () => {
    answering(502, '<html>Bad Gateway</html>');
    expect((await failure(upload('/api/upload/image', imageForm()))).message).toBe('HTTP错误 (502)');
  });
});

describe('an operation message for a server error', () => {
  it('replaces a server error, keeps a refusal and nothing answering', async () => {
    expect((await failure(failingAs(Promise.reject(new ApiError('服务器内部错误', 500)), '创建笔记失败'))).message).toBe('创建笔记失败');
    expect((await failure(failingAs(Promise.reject(new ApiError('标题不能为空', 400)), '创建笔记失败'))).message).toBe('标题不能为空');
    expect((await failure(failingAs(Promise.reject(new ApiError('网络连接失败，请检查网络设置', 0)), '更新笔记失败'))).message).toBe('网络连接失败，请检查网络设置');
  });
});
