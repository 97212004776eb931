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
