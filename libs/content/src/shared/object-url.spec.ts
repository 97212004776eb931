import { objectKeyOf, ownObjectUrl } from './object-url';

describe('objectKeyOf', () => {
  it('reads the key of our file URLs, with or without an origin', () => {
    expect(objectKeyOf('/api/files/images/2026/a.png')).toBe('images/2026/a.png');
    expect(ownObjectUrl('https://shiliu.example.com/api/files/images/a.png')).toBe('/api/files/images/a.png');
  });

  it('refuses anything else', () => {
    for (const url of ['https://evil.example.com/a.png', '/api/files/../secret', '/api/files/a.png?x=1', '//evil.example.com/api/files/a.png', 'javascript:alert(1)', 42, null]) {
      expect(objectKeyOf(url)).toBeNull();
    }
  });
});
