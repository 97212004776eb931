import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { type ProductStack, type RunMode, type StackUser, startProductStack, waitFor } from './product-stack';

const REFUSED = '内容包含违规词汇';
const personal = { real_name: '林小雨', id_card: '11010519491231002X', occupation: '学生', reason: '校园摄影博主' };

/**
 * Banned words through the gateway in one run mode (issue 40): administrators keep the list in auth, every service
 * that takes students' text checks its own copy, fed by `banned-words.changed`. Each field is tried with the word as
 * listed, spaced, inside markup and in full-width letters; a word added or removed is enforced, or no longer, within
 * seconds in auth and content alike.
 */
export function describeBannedWords(mode: RunMode): void {
  describe(`banned words in ${mode} mode`, () => {
    let stack: ProductStack;
    let admin: string;
    let student: StackUser;
    let image: string;
    let post: number;
    /** A Latin word of this run, added first, so that full-width letters can be tried. */
    const latin = `sp${randomBytes(2).toString('hex')}`;
    const fullWidth = (text: string) => [...text].map((char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0)).join('');
    const variants = ['赌博', '去 赌\u3000博', '<b>赌</b>博', fullWidth(latin.toUpperCase()), `${latin.slice(0, 3)} ${latin.slice(3)}`];

    const ok = async <T>(method: string, path: string, token: string, body?: unknown): Promise<T> => {
      const answer = await stack.call<T>(method, path, body, token);
      expect([method, path, answer.status, answer.body.message]).toEqual([method, path, 200, expect.any(String)]);
      return answer.body.data;
    };
    const status = async (method: string, path: string, token: string | undefined, body: unknown) => {
      const answer = await stack.call(method, path, body, token);
      return answer.status === 400 && answer.body.message === REFUSED ? 'refused' : answer.status === 200 ? 'accepted' : `${answer.status} ${answer.body.message}`;
    };
    const note = (fields: Record<string, unknown>) => ({ title: '周末去爬山', content: '<p>风景很好</p>', category_id: 1, type: 1, images: [image], tags: ['户外'], ...fields });
    /** Each field's call with a text in it, as a student sends it. */
    const fields: Record<string, (text: string) => Promise<string>> = {
      'note title': (text) => status('POST', '/api/posts', student.token, note({ title: text.replace(/<[^>]*>/g, '') })),
      'note text': (text) => status('POST', '/api/posts', student.token, note({ content: `<p>${text}</p>` })),
      'note tags': (text) => status('POST', '/api/posts', student.token, note({ tags: ['户外', text.replace(/<[^>]*>/g, '')] })),
      comment: (text) => status('POST', '/api/comments', student.token, { post_id: post, content: text }),
      nickname: (text) => status('PUT', `/api/users/${student.userId}`, student.token, { nickname: text.replace(/<[^>]*>/g, '') }),
      bio: (text) => status('PUT', `/api/users/${student.userId}`, student.token, { bio: text }),
      interests: (text) => status('PUT', `/api/users/${student.userId}`, student.token, { interests: ['摄影', text.replace(/<[^>]*>/g, '')] }),
      major: (text) => status('PUT', `/api/users/${student.userId}`, student.token, { major: text }),
      'verification text': async (text) => {
        const answer = await status('POST', '/api/users/verification', student.token, { type: 2, content: { ...personal, reason: text } });
        if (answer === 'accepted') await ok('DELETE', '/api/users/verification/revoke', student.token);
        return answer;
      },
    };
    const inForce = async () => (await ok<{ version: number; words: string[] }>('GET', '/api/banned-words', admin)).words;

    beforeAll(async () => {
      stack = await startProductStack(mode, { RATE_LIMIT_PER_MINUTE: '1000000' });
      admin = (await ok<{ tokens: { access_token: string } }>('POST', '/api/auth/admin/login', '', { username: 'admin', password: stack.adminPassword })).tokens.access_token;
      student = await stack.signUp('守规矩的同学');
      const key = `images/banned-words-e2e/${randomUUID()}.png`;
      await stack.storage.put(key, await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 60 } } }).png().toBuffer(), 'image/png');
      image = `/api/files/${key}`;
      await waitFor('content to know the student', async () => (await stack.call('GET', `/api/users/${student.userId}/posts`)).status === 200, 60_000, 100);
      post = (await ok<{ id: number }>('POST', '/api/posts', student.token, note({}))).id;
      await ok('POST', '/api/admin/banned-words', admin, { word: latin });
      // Both services' copies are filled by the backfill at their first start, then by the change above.
      await waitFor('the bundled list and the new word in force in auth and content', async () => (await fields.bio(latin)) === 'refused' && (await fields.comment(latin)) === 'refused', 60_000, 200);
    }, 200_000);

    afterAll(async () => {
      await stack?.stop();
    });

    it('starts from the bundled list and answers it to anyone, normalised', async () => {
      expect(await stack.call('GET', '/api/banned-words')).toMatchObject({ status: 200, body: { data: { version: expect.any(Number), words: expect.arrayContaining(['赌博', '代开发票', '枪支', latin]) } } });
    });

    it.each(Object.keys(fields))('refuses a banned word in the %s, spaced, in markup or full-width, and stores nothing', async (field) => {
      for (const text of variants) expect([field, text, await fields[field](text)]).toEqual([field, text, 'refused']);
      expect([field, await fields[field]('春天的樱花')]).toEqual([field, 'accepted']);
    });

    it('refuses a banned nickname at registration', async () => {
      const captcha = await ok<{ captchaId: string }>('GET', '/api/auth/captcha', '');
      const userId = `st_${randomBytes(4).toString('hex')}`;
      const body = { user_id: userId, nickname: '代开 发票', password: 'secret-123', captchaId: captcha.captchaId, captchaText: stack.captchaAnswer };
      expect(await status('POST', '/api/auth/register', undefined, body)).toBe('refused');
      expect((await stack.call('GET', `/api/users/${userId}`)).status).toBe(404);
    });

    it('keeps nothing of a refused write', async () => {
      const profile = await ok<{ nickname: string; bio: string }>('GET', `/api/users/${student.userId}`, student.token);
      expect(profile.nickname).not.toContain('赌');
      expect(profile.bio).not.toContain('赌');
      const notes = await ok<{ posts: { title: string }[] }>('GET', `/api/users/${student.userId}/posts?limit=100`, student.token);
      expect(notes.posts.map((each) => each.title).filter((title) => title.includes('赌') || title.toLowerCase().includes(latin))).toEqual([]);
      const comments = await ok<{ comments: { content: string }[] }>('GET', `/api/posts/${post}/comments?limit=100`, student.token);
      expect(comments.comments.map((each) => each.content).filter((content) => content.includes('赌'))).toEqual([]);
    });

    it('enforces an added word in every service within seconds, and stops when it is removed', async () => {
      const word = `新${randomBytes(2).toString('hex')}`;
      expect(await fields.nickname(`说${word}`)).toBe('accepted');
      const added = await ok<{ added: { id: number; word: string }[] }>('POST', '/api/admin/banned-words', admin, { words: [word, '赌博'] });
      expect(added.added.map((row) => row.word)).toEqual([word]);
      for (const [name, field] of Object.entries(fields)) {
        await waitFor(`the ${name} to refuse the added word`, async () => (await field(word)) === 'refused', 30_000, 100);
      }
      expect(await inForce()).toContain(word);

      await ok('DELETE', `/api/admin/banned-words/${added.added[0].id}`, admin);
      for (const [name, field] of Object.entries(fields)) {
        await waitFor(`the ${name} to accept the removed word`, async () => (await field(word)) === 'accepted', 30_000, 100);
      }
      expect(await inForce()).not.toContain(word);
    });

    it('writes every change in the administrators\' operation log', async () => {
      const added = await ok<{ added: { id: number }[] }>('POST', '/api/admin/banned-words', admin, { word: `记${randomBytes(2).toString('hex')}` });
      const id = added.added[0].id;
      await ok('DELETE', `/api/admin/banned-words/${id}`, admin);
      await waitFor(
        'the add and the delete in the log',
        async () => {
          const log = await ok<{ data: { method: string; path: string }[] }>('GET', '/api/admin/monitor/admin-actions?entity=banned-words&limit=100', admin);
          const calls = log.data.map((row) => `${row.method} ${row.path}`);
          return calls.includes('POST /api/admin/banned-words') && calls.includes(`DELETE /api/admin/banned-words/${id}`);
        },
        30_000,
        100,
      );
    });

    it('lists, filters and refuses what the back office sends wrong', async () => {
      const listed = await ok<{ data: { word: string }[]; pagination: { total: number } }>('GET', '/api/admin/banned-words?keyword=发票&limit=5', admin);
      expect(listed.data.map((row) => row.word)).toEqual(['代开发票']);
      expect(listed.pagination.total).toBe(1);
      expect((await stack.call('GET', '/api/admin/banned-words', undefined, student.token)).status).toBe(403);
      expect(await stack.call('POST', '/api/admin/banned-words', { word: ' ' }, admin)).toMatchObject({ status: 400, body: { message: '请输入违禁词' } });
      expect(await stack.call('POST', '/api/admin/banned-words', { word: 'ＤＵ　博,赌博' }, admin)).toMatchObject({ status: 200, body: { data: { added: [{ word: 'du博' }], existing: ['赌博'] } } });
      expect(await stack.call('POST', '/api/admin/banned-words', { words: ['赌 博'] }, admin)).toMatchObject({ status: 409, body: { message: '违禁词已存在' } });
      expect(await stack.call('DELETE', '/api/admin/banned-words/999999', undefined, admin)).toMatchObject({ status: 404, body: { message: '违禁词不存在' } });
    });
  });
}
