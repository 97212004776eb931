import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, registerLogOutAndLogIn } from './browser-kit';
import { creatingAndFollowingUp } from './creating-flow';

/**
 * The browser flow through the distributed stack (every service in its own process behind the gateway, Kafka
 * between them, files in MinIO, search in Elasticsearch, the notification stream proxied by the gateway): signing up,
 * and the whole of creating and following up (creating-flow.ts, the new note seen with its images included), which
 * browser.spec.ts runs against the embedded product.
 */
const suite = browserSuite({
  mode: 'distributed',
  // The unread badge's call while notify is still starting.
  deliberate: [/\/api\/notifications\/unread-count$/],
  shotPrefix: 'distributed-',
});

describe('the web app through the distributed stack', () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await suite.context(1440);
    page = await suite.open(context);
  });
  afterAll(() => context?.close());

  it('registers with the captcha, logs out and logs in again', async () => {
    await page.goto('/explore');
    await registerLogOutAndLogIn(page, suite.stack().captchaAnswer, { userId: 'dist_tester', nickname: '集群测试员' });
  });
});

creatingAndFollowingUp(suite);
