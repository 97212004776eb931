import { BaseRpcContext } from '@nestjs/microservices';
import type { EventEnvelope } from '@shiliu/contracts';
import type { EntityManager } from 'typeorm';

/**
 * What an @EventPattern handler receives with @Ctx(): the transaction that also records the event in the
 * inbox. A handler writes through `manager` so that its effect and the inbox row commit together.
 */
export class EventContext extends BaseRpcContext<[EventEnvelope, EntityManager]> {
  get envelope(): EventEnvelope {
    return this.args[0];
  }
  get manager(): EntityManager {
    return this.args[1];
  }
}

const RUN_ENDS = 'platform:beforeRunEnds';

/**
 * Asks for `write` to run in the handler's transaction after the last handler of its run of events (the run a
 * consumer handles in one transaction) and before it commits, once however often it is asked: a repository gathers
 * what the run's events write into one statement instead of one each. Answers false outside a run of events (an HTTP
 * request's transaction), where the caller writes at once. What is gathered is not in the tables until then: the
 * gatherer writes it first whenever the run reads or changes what it touches, and handlers that gather open no
 * savepoint (a savepoint rolled back would not take back what was gathered inside it).
 */
export function beforeRunEnds(manager: EntityManager, write: (manager: EntityManager) => Promise<void>): boolean {
  const writes = (manager.queryRunner?.data as Record<string, Set<(manager: EntityManager) => Promise<void>> | undefined> | undefined)?.[RUN_ENDS];
  if (!writes) return false;
  writes.add(write);
  return true;
}

/** Runs `handle` as a run of events in the transaction of `manager`, then the writes its handlers asked to gather. */
export async function asRun<T>(manager: EntityManager, handle: () => Promise<T>): Promise<T> {
  const data = manager.queryRunner!.data as Record<string, unknown>;
  const writes = new Set<(manager: EntityManager) => Promise<void>>();
  data[RUN_ENDS] = writes;
  try {
    const result = await handle();
    // A gathered write may ask for another (moving counters gathered elsewhere): until none is left.
    for (let write = first(writes); write; write = first(writes)) {
      writes.delete(write);
      await write(manager);
    }
    return result;
  } finally {
    delete data[RUN_ENDS];
  }
}

function first<T>(set: Set<T>): T | undefined {
  return set.values().next().value;
}
