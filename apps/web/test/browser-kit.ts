import type { BrowserContext, Page } from 'playwright-core';
// eslint-disable-next-line @nx/enforce-module-boundaries
import type { ProductStack } from '../../gateway/test/product-stack';

export const cards = (page: Page) => page.locator('article.card');

/**
 * Pages that record every uncaught error and every failed request or 4xx/5xx answer into `problems`, except the
 * answers `ignored()` matches at the time (a test may provoke some on purpose). Each spec checks the list after
 * each test.
 */
export function pageRecorder(ignored: () => RegExp[]) {
  const problems: string[] = [];
  const open = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      const reason = request.failure()?.errorText ?? '';
      if (!/ERR_ABORTED/.test(reason)) problems.push(`request failed: ${request.url()} ${reason}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !ignored().some((pattern) => pattern.test(new URL(response.url()).pathname))) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    return page;
  };
  return { problems, open };
}

/** Signs a registered student into a browser context through the stored session, as a login leaves it. */
export async function signInAs(stack: ProductStack, context: BrowserContext, user: { token: string }) {
  const me = await stack.call<unknown>('GET', '/api/auth/me', undefined, user.token);
  await context.addInitScript(
    ([token, info]) => {
      if (!localStorage.getItem('token')) {
        localStorage.setItem('token', token);
        localStorage.setItem('userInfo', info);
      }
    },
    [user.token, JSON.stringify(me.body.data)] as const,
  );
}
