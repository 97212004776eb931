import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { leanAsyncResourceBind } from './lean-async-bind';

// Jest shares Node's own modules between the test files of a worker, and a service started in an earlier file may
// have replaced `bind` already: Node's own binding is reached through the instance method, which stays as it is.
describe('leanAsyncResourceBind', () => {
  const original = AsyncResource.bind;
  afterAll(() => (AsyncResource.bind = original));

  beforeAll(() => leanAsyncResourceBind());

  it('runs the bound function in the async context where it was bound, not where it is called', async () => {
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('bound here', () => AsyncResource.bind(() => storage.getStore()));
    const seen = await storage.run('called here', () => new Promise((resolve) => setImmediate(() => resolve(bound()))));
    expect(seen).toBe('bound here');
  });

  it('passes the arguments and the result, with `thisArg` or else the caller’s `this`', () => {
    const self = { name: 'given' };
    const withThis = AsyncResource.bind(function (this: unknown, a: unknown, b: unknown) {
      return [(this as { name: string }).name, a, b];
    }, 'test', self);
    expect(withThis(1, 2)).toEqual(['given', 1, 2]);
    const caller = { name: 'caller', call: AsyncResource.bind(function (this: unknown) {
      return (this as { name: string }).name;
    }) };
    expect(caller.call()).toBe('caller');
  });

  it('refuses what is not a function, as Node does', () => {
    expect(() => AsyncResource.bind('no' as unknown as () => void)).toThrow(TypeError);
  });

  it('leaves out only the deprecated accessor Node hangs on bound functions', () => {
    const bound = AsyncResource.bind(() => 1);
    expect(Object.getOwnPropertyDescriptor(bound, 'asyncResource')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(new AsyncResource('node').bind(() => 1), 'asyncResource')).toBeDefined();
  });
});
