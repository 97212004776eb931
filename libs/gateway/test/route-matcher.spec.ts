import { RouteMatcher, routeTable } from '../src';

describe('route table', () => {
  const matcher = new RouteMatcher(routeTable);

  it.each([
    ['GET', '/api/users/search', 'auth'],
    ['GET', '/api/users/verification/status', 'auth'],
    ['GET', '/api/users/abc_123', 'auth'],
    ['GET', '/api/users/abc_123/posts', 'content'],
    ['POST', '/api/users/abc_123/follow', 'social'],
    ['GET', '/api/users/follow-status', 'social'],
    ['GET', '/api/users/suggestions', 'content'],
    ['GET', '/api/users/abc_123/follow-status', 'social'],
    ['GET', '/api/users/abc_123/card', 'social'],
    ['GET', '/api/posts/42', 'content'],
    ['POST', '/api/upload/video', 'media'],
    ['GET', '/api/files/images/a/b.png', 'media'],
    ['HEAD', '/api/files/images/a/b.png', 'media'],
    ['GET', '/api/search', 'search'],
    ['GET', '/api/admin/monitor/activities', 'notify'],
    ['PUT', '/api/admin/audit/7/approve', 'auth'],
    ['DELETE', '/api/admin/posts', 'content'],
  ])('%s %s goes to %s', (method, path, service) => {
    expect(matcher.match(method, path)?.service).toBe(service);
  });

  it('gives video uploads the long timeout and large body', () => {
    expect(matcher.match('POST', '/api/upload/video')?.kind).toBe('video');
  });

  it('matches nothing for unknown calls, wrong methods or partial paths', () => {
    expect(matcher.match('GET', '/api/nothing')).toBeNull();
    expect(matcher.match('PATCH', '/api/posts/1')).toBeNull();
    expect(matcher.match('GET', '/api/posts/1/unknown')).toBeNull();
  });

  it('names the methods a path is served with, for the 405 of any other, and none for a path no entry has', () => {
    expect(matcher.methodsFor('/api/posts/42')).toEqual(['GET', 'PUT', 'DELETE', 'HEAD']);
    expect(matcher.methodsFor('/api/auth/login')).toEqual(['POST']);
    expect(matcher.methodsFor('/api/files/images/a/b.png')).toEqual(['GET', 'HEAD']);
    expect(matcher.methodsFor('/api/nothing')).toEqual([]);
    expect(matcher.methodsFor('/api/posts/1/unknown')).toEqual([]);
  });

  it('reaches every entry: none is hidden behind an earlier one', () => {
    for (const entry of routeTable) {
      const concrete = entry.path.replace(/:[a-z_]+/g, 'x1').replace(/\*[a-z]+/, 'a/b.png');
      expect(matcher.match(entry.method, concrete)).toBe(entry);
    }
  });
});
