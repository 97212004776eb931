import { waitFor } from '@shiliu/platform/testing';
import { type ProductStack, startProductStack } from './product-stack';

interface DemoAccount {
  user_id: string;
  nickname: string;
  avatar: string;
  verified: number;
}

/**
 * What `npm start` shows on a fresh data folder: the demo data every service seeds in turn, seen through the gateway
 * as a first visitor, the host student `xiaoshiliu` and the administrator see it.
 */
describe('the embedded default\'s demo data', () => {
  let stack: ProductStack;
  let admin: string;
  let accounts: DemoAccount[];

  const ok = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const answer = await stack.call<T>(method, path, body, token);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body.data;
  };

  beforeAll(async () => {
    stack = await startProductStack('embedded', { DEMO_DATA: 'true', DEMO_NOTES: '60', RATE_LIMIT_PER_MINUTE: '1000000' });
    admin = (await ok<{ tokens: { access_token: string } }>('POST', '/api/auth/admin/login', { username: 'admin', password: stack.adminPassword })).tokens.access_token;
    accounts = await ok<DemoAccount[]>('GET', '/api/admin/test-users', undefined, admin);
  }, 200_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('gives every demo account a drawn avatar and the official accounts their badge', async () => {
    expect(accounts.length).toBeGreaterThanOrEqual(30);
    for (const account of accounts) {
      expect(account.avatar).toMatch(/^\/api\/files\/demo\/avatars\//);
      const picture = await fetch(stack.base + account.avatar);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toMatch(/^image\//);
    }
    const badges = Object.fromEntries(accounts.map((account) => [account.user_id, account.verified]));
    expect(badges).toMatchObject({ campus_library: 1, student_union: 1, xiaoshiliu: 0 });
  });

  it('has every demo account follow someone and be followed by someone, many of them both ways', async () => {
    for (const account of accounts) {
      const stats = await ok<{ follow_count: number; fans_count: number }>('GET', `/api/users/${account.user_id}/stats`);
      expect({ user: account.user_id, follows: stats.follow_count > 0, fans: stats.fans_count > 0 }).toEqual({ user: account.user_id, follows: true, fans: true });
    }
    const { mutualFollows } = await ok<{ mutualFollows: unknown[] }>('GET', '/api/users/chen_mo/mutual-follows');
    expect(mutualFollows.length).toBeGreaterThan(1);
  });

  it('opens the feed on notes with no title twice, each with its cover and author avatar', async () => {
    const feed = await ok<{ posts: { title: string; cover_url: string; avatar: string }[] }>('GET', '/api/posts?limit=50');
    expect(feed.posts).toHaveLength(50);
    expect(new Set(feed.posts.map((post) => post.title)).size).toBe(50);
    for (const post of feed.posts) {
      expect(post.cover_url).toMatch(/^\/api\/files\/demo\/content\//);
      expect(post.avatar).toMatch(/^\/api\/files\/demo\/avatars\//);
    }
  });

  it('fills the host\'s notifications and the administrator\'s monitor', async () => {
    const host = (await ok<{ tokens: { access_token: string } }>('POST', '/api/auth/login', { user_id: 'xiaoshiliu', password: 'shiliu123' })).tokens.access_token;
    await waitFor('notify to count what reached the host', async () => {
      const counts = await ok<Record<'comments' | 'likes' | 'follows', number>>('GET', '/api/notifications/unread-count-by-type', undefined, host);
      return counts.comments > 0 && counts.likes > 0 && counts.follows > 0;
    });
    const { notifications } = await ok<{ notifications: { type: number }[] }>('GET', '/api/notifications/comments?limit=50', undefined, host);
    // Comments on her notes and mentions of her, in comments or in notes.
    expect(notifications.some((notification) => notification.type === 4)).toBe(true);
    expect(notifications.some((notification) => notification.type === 7 || notification.type === 8)).toBe(true);
    const activities = await ok<unknown[]>('GET', '/api/admin/monitor/activities', undefined, admin);
    expect(activities.length).toBeGreaterThan(5);
  });
});
