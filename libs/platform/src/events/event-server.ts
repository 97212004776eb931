import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import type { EventEnvelope } from '@shiliu/contracts';
import { topicsOfEventType } from '@shiliu/contracts';
import { lastValueFrom } from 'rxjs';
import type { DispatchOutcome, EventDispatcher } from './event-dispatcher';
import { EventContext } from './event-context';

/**
 * What both event transports share: handlers are @EventPattern('<event type>') methods, and every event
 * goes through the service's dispatcher (inbox, retries, dead letters). Only where events come from differs.
 */
export abstract class EventServer extends Server implements CustomTransportStrategy {
  constructor(protected readonly dispatcher: EventDispatcher) {
    super();
  }

  /**
   * The topics this service must read, from the event types its handlers name (a type may travel on several,
   * see `alsoOnTopic`); an unknown type stops start-up.
   */
  protected subscribedTopics(): string[] {
    return [...new Set([...this.getHandlers().keys()].flatMap((type) => topicsOfEventType(type)))];
  }

  /** Answers null for an event type this service does not handle (a topic carries several types). */
  protected async handleEnvelope(envelope: EventEnvelope, topic?: string): Promise<DispatchOutcome | null> {
    const handler = this.getHandlerByPattern(envelope.type);
    if (!handler) return null;
    return this.dispatcher.dispatch(envelope, async (manager) => {
      const result: unknown = await handler(envelope, new EventContext([envelope, manager]));
      await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
    }, topic);
  }

  on(): never {
    throw new Error('Event servers emit no status events');
  }

  unwrap<T>(): T {
    throw new Error('Event servers wrap no client');
  }
}
