import { type EntityManager, type EntitySubscriberInterface, EventSubscriber, type TransactionCommitEvent, type TransactionRollbackEvent, type TransactionStartEvent } from 'typeorm';

const PENDING = 'platform:counterMoves';

type Moves = Map<CounterTable<string>, Map<number, Record<string, number>>>;

/**
 * A table of counters, a row per id with a column per counter, moved by adding to them. A transaction's moves are
 * summed as it goes and written once per row just before it commits (`CounterMovesWriter`), tables by name and rows
 * in id order: a consumer's run of a hundred events for three users writes three rows, not a hundred, and holds
 * their locks only for the commit, so runs of different partitions moving the same users' counters in any order
 * neither wait long on each other nor deadlock.
 *
 * What has been moved is not in the table until the transaction commits (or `apply` writes it): a transaction that
 * reads the counters it moves calls `apply` first.
 */
export class CounterTable<C extends string> {
  constructor(
    readonly table: string,
    readonly key: string,
    readonly columns: readonly C[],
  ) {}

  /** Adds `delta` to the row's counters when the transaction commits. */
  move(manager: EntityManager, id: number | string, delta: Partial<Record<C, number>>): void {
    const rows = rowsOf(manager, this);
    const sums = rows.get(Number(id)) ?? {};
    for (const column of this.columns) sums[column] = (sums[column] ?? 0) + (delta[column] ?? 0);
    rows.set(Number(id), sums);
  }

  /**
   * Writes the moves the transaction has summed so far in one statement, rows in id order (the order it inserts and
   * locks them in): a run that moved ten users' counters pays one round trip, not ten.
   */
  async apply(manager: EntityManager): Promise<void> {
    const rows = rowsOf(manager, this);
    const ids = [...rows.keys()].filter((id) => this.columns.some((column) => (rows.get(id)![column] ?? 0) !== 0)).sort((a, b) => a - b);
    const sums = ids.map((id) => rows.get(id)!);
    rows.clear();
    if (ids.length === 0) return;
    const columns = this.columns.map((column) => `"${column}"`);
    await manager.query(
      `INSERT INTO "${this.table}" ("${this.key}", ${columns.join(', ')})
       SELECT * FROM unnest($1::bigint[], ${this.columns.map((_, i) => `$${i + 2}::int[]`).join(', ')}) AS "m"("id", ${columns.join(', ')}) ORDER BY "id"
       ON CONFLICT ("${this.key}") DO UPDATE SET ${columns.map((column) => `${column} = "${this.table}".${column} + EXCLUDED.${column}`).join(', ')}`,
      [ids, ...this.columns.map((column) => sums.map((sum) => sum[column] ?? 0))],
    );
  }
}

function movesOf(manager: EntityManager): Moves {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('Counters move only inside a transaction');
  const data = runner.data as Record<string, Moves | undefined>;
  return (data[PENDING] ??= new Map());
}

function rowsOf(manager: EntityManager, table: CounterTable<string>): Map<number, Record<string, number>> {
  const moves = movesOf(manager);
  let rows = moves.get(table);
  if (!rows) moves.set(table, (rows = new Map()));
  return rows;
}

/**
 * Writes every counter table's pending moves just before a transaction commits, and before a savepoint opens so
 * that rolling back to the savepoint takes back exactly the moves made after it; forgets them when a transaction
 * (or savepoint) rolls back. On every service's data source.
 */
@EventSubscriber()
export class CounterMovesWriter implements EntitySubscriberInterface {
  async beforeTransactionStart(event: TransactionStartEvent): Promise<void> {
    await applyAll(event.queryRunner.manager);
  }

  async beforeTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    await applyAll(event.queryRunner.manager);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    delete (event.queryRunner.data as Record<string, unknown>)[PENDING];
  }
}

async function applyAll(manager: EntityManager): Promise<void> {
  const moves = (manager.queryRunner?.data as Record<string, Moves | undefined> | undefined)?.[PENDING];
  if (!moves) return;
  for (const table of [...moves.keys()].sort((a, b) => a.table.localeCompare(b.table))) await table.apply(manager);
}
