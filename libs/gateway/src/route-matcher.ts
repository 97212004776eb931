import type { HttpMethod, RouteEntry } from './route-table';

interface CompiledRoute {
  entry: RouteEntry;
  pattern: RegExp;
}

/** ':name' matches one path segment, '*name' the rest of the path. */
function compile(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+';
      if (segment.startsWith('*')) return '.+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** Finds the first route table entry for a method and path (HEAD is served as GET). */
export class RouteMatcher {
  private readonly routes: CompiledRoute[];

  constructor(table: readonly RouteEntry[]) {
    this.routes = table.map((entry) => ({ entry, pattern: compile(entry.path) }));
  }

  match(method: string, path: string): RouteEntry | null {
    const wanted = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    return this.routes.find((route) => route.entry.method === wanted && route.pattern.test(path))?.entry ?? null;
  }

  /** The methods some entry serves `path` with (HEAD beside GET); none when no entry has the path. */
  methodsFor(path: string): string[] {
    const methods = [...new Set(this.routes.filter((route) => route.pattern.test(path)).map((route) => route.entry.method))];
    return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  }
}
