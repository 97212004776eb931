import { CacheRegion } from './read-cache';

describe('CacheRegion', () => {
  const clock = { tick: 0 };
  let region: CacheRegion<string>;

  beforeEach(() => {
    region = new CacheRegion<string>(clock, 3);
  });

  it('keeps what a read found when nothing changed while it ran', () => {
    region.set(clock.tick, 'value', 'note1');
    expect(region.get('note1')).toBe('value');
  });

  it('never puts back what a read found if its key or group changed while it ran', () => {
    const startedAt = clock.tick;
    clock.tick++;
    region.invalidate('note1');
    region.set(startedAt, 'older', 'note1');
    expect(region.get('note1')).toBeUndefined();

    const pageRead = clock.tick;
    clock.tick++;
    region.invalidate('note2');
    region.set(pageRead, 'older page', 'note2', 'note2|asc|5');
    expect(region.get('note2|asc|5')).toBeUndefined();
    // A read begun after the change is kept.
    region.set(clock.tick, 'newer page', 'note2', 'note2|asc|5');
    expect(region.get('note2|asc|5')).toBe('newer page');
  });

  it('drops a whole group at once', () => {
    region.set(clock.tick, 'asc', 'note3', 'note3|asc|5');
    region.set(clock.tick, 'desc', 'note3', 'note3|desc|5');
    clock.tick++;
    region.invalidate('note3');
    expect(region.get('note3|asc|5')).toBeUndefined();
    expect(region.get('note3|desc|5')).toBeUndefined();
  });

  it('holds at most its bound, dropping the oldest', () => {
    for (const key of ['a', 'b', 'c', 'd']) region.set(clock.tick, key, key);
    expect(region.get('a')).toBeUndefined();
    expect(region.get('d')).toBe('d');
  });

  it('keeps nothing read before it was cleared', () => {
    const startedAt = clock.tick;
    clock.tick++;
    region.clear();
    region.set(startedAt, 'older', 'note4');
    expect(region.get('note4')).toBeUndefined();
  });
});
