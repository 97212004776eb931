import type { EventDispatcher } from './event-dispatcher';
import { EventServer } from './event-server';

class TestEventServer extends EventServer {
  ready(): boolean {
    return true;
  }

  listen(callback: () => void): void {
    callback();
  }

  close(): void {}
}

describe('EventServer', () => {
  it('refuses a second handler for one event type, which Nest would run beside the first in no set order', () => {
    const server = new TestEventServer({ service: 'social' } as EventDispatcher);
    server.addHandler('user.deleted', async () => undefined, true);
    server.addHandler('user.updated', async () => undefined, true);
    expect(() => server.addHandler('user.deleted', async () => undefined, true)).toThrow('two handlers for event "user.deleted" in service social');
  });
});
