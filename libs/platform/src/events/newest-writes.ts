import type { EntityManager } from 'typeorm';
import { beforeRunEnds } from './event-context';

/**
 * Rows a read model sets to a value as of an event's time, where only the newest value counts (a note's like count
 * after its latest like). In a run of events they are gathered, the newest per row kept, and written in one call at
 * the end of the run (`beforeRunEnds`): fifty likes of one note in a run write its count once. Outside a run each is
 * written at once. The writer keeps its own as-of guard, so an older value never overwrites a newer one already in
 * the table. What is gathered is not in the table until then: a repository that reads or changes these rows
 * otherwise in a run calls `flush` first.
 */
export class NewestWrites<T> {
  private readonly slot = Symbol('newest writes');

  constructor(
    private readonly rowOf: (value: T) => string,
    private readonly asOf: (value: T) => string,
    private readonly write: (manager: EntityManager, values: T[]) => Promise<void>,
  ) {}

  async set(manager: EntityManager, value: T): Promise<void> {
    if (!beforeRunEnds(manager, this.flush)) return this.write(manager, [value]);
    const data = manager.queryRunner!.data as Record<symbol, Map<string, T> | undefined>;
    const held = (data[this.slot] ??= new Map());
    const row = this.rowOf(value);
    const before = held.get(row);
    // As the table's guard (`as_of <= new`): of two values as of the same time, the later one wins.
    if (!before || Date.parse(this.asOf(before)) <= Date.parse(this.asOf(value))) held.set(row, value);
  }

  /** Writes what the run has gathered so far. */
  readonly flush = async (manager: EntityManager): Promise<void> => {
    const data = (manager.queryRunner?.data ?? {}) as Record<symbol, Map<string, T> | undefined>;
    const held = data[this.slot];
    if (!held?.size) return;
    delete data[this.slot];
    await this.write(manager, [...held.values()]);
  };
}

/** A row's count after the event of `asOf` (a note's likes, a student's fans). */
export interface CountAsOf {
  id: number;
  count: number;
  asOf: string;
}

/** A note's count, with the note's author, for read models that create the note's row on its first count. */
export interface NoteCountAsOf extends CountAsOf {
  authorId: number;
}

/** `NewestWrites` of counts, one per row id. */
export function newestCounts<T extends CountAsOf>(write: (manager: EntityManager, counts: T[]) => Promise<void>): NewestWrites<T> {
  return new NewestWrites<T>((count) => String(count.id), (count) => count.asOf, write);
}
