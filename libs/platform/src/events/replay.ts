import { randomUUID } from 'node:crypto';
import { type EventEnvelope, knownEventType } from '@shiliu/contracts';
import { Client } from 'pg';

export interface ReplayResult {
  /** Parked events sent again. */
  replayed: number;
  /** Outbox records the transport had refused, released to be published again. */
  released: number;
}

/**
 * Sends a service's parked events again, once the fault that parked them is fixed: each goes back into the
 * service's own outbox, so the relay publishes it again on its topic (Kafka) or bus (embedded) by the same path
 * as any event. Its envelope keeps its id, so every consumer that did handle it finds it in its inbox and
 * ignores it; the consumer that parked it handles it now. The outbox records this service's relay set aside are
 * released too. Messages that were not readable envelopes cannot be sent again and stay parked.
 */
export async function replayParked(databaseUrl: string, service: string, filter: { type?: string } = {}): Promise<ReplayResult> {
  const client = new Client({ connectionString: databaseUrl, application_name: `shiliu-${service}-replay`, options: `-c search_path=${service}` });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; envelope: EventEnvelope; topic: string | null; key: string | null }>(
      `SELECT "id", "envelope", "topic", "key" FROM "dead_letters"
       WHERE "replayed_at" IS NULL AND "envelope" IS NOT NULL AND ($1::text IS NULL OR "type" = $1) ORDER BY "id" FOR UPDATE`,
      [filter.type ?? null],
    );
    for (const row of rows) {
      const topic = row.topic ?? knownEventType(row.envelope.type)?.topic;
      if (!topic) throw new Error(`dead letter ${row.id}: no topic known for event type "${row.envelope.type}"`);
      await client.query(`INSERT INTO "outbox" ("id", "topic", "key", "type", "envelope") VALUES ($1, $2, $3, $4, $5)`, [
        randomUUID(),
        topic,
        row.key ?? row.envelope.id,
        row.envelope.type,
        JSON.stringify(row.envelope),
      ]);
    }
    await client.query(`UPDATE "dead_letters" SET "replayed_at" = now() WHERE "id" = ANY($1::bigint[])`, [rows.map((row) => row.id)]);
    const released = await client.query(
      `UPDATE "outbox" SET "failed_at" = NULL, "error" = NULL WHERE "failed_at" IS NOT NULL AND ($1::text IS NULL OR "type" = $1)`,
      [filter.type ?? null],
    );
    await client.query('COMMIT');
    return { replayed: rows.length, released: released.rowCount ?? 0 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
