import { AsyncResource } from 'node:async_hooks';

/**
 * Nest runs each interceptor of a request through `AsyncResource.bind` (one more for the handler), so every call to
 * every service binds three or four times. Node 20's `bind` also hangs a deprecated `asyncResource` accessor
 * (DEP0172) on each bound function, two `util.deprecate` wrappers made afresh every time: they cost far more than
 * the bind itself and were a visible share of a cheap request's CPU (`bench/bind`, figures in bench/README.md). It
 * binds the same way without the accessor: the function still runs in the resource's async context
 * (AsyncLocalStorage included), with `thisArg` or else the caller's `this`. The same for every call, so calling it
 * again changes nothing.
 */
export function leanAsyncResourceBind(): void {
  AsyncResource.bind = function bind<Func extends (this: ThisArg, ...args: unknown[]) => unknown, ThisArg>(fn: Func, type?: string, thisArg?: ThisArg): Func {
    if (typeof fn !== 'function') throw new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`);
    const resource = new AsyncResource(type || fn.name || 'bound-anonymous-fn');
    if (thisArg !== undefined) return ((...args: unknown[]) => resource.runInAsyncScope(fn, thisArg, ...args)) as Func;
    return function (this: ThisArg, ...args: unknown[]) {
      return resource.runInAsyncScope(fn, this, ...args);
    } as Func;
  } as typeof AsyncResource.bind;
}
