import { type CustomTransportStrategy, Server } from '@nestjs/microservices';
import type { EventEnvelope } from '@shiliu/contracts';
import { knownEventType, topicsOfEventType } from '@shiliu/contracts';
import { lastValueFrom } from 'rxjs';
import type { Delivery, DispatchOutcome, EventDispatcher } from './event-dispatcher';
import { EventContext } from './event-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

  /** A message as it arrived on a topic: what cannot be read as an envelope is parked, never thrown back at the transport. */
  protected async handleMessage(raw: string, delivery: Delivery): Promise<DispatchOutcome | null> {
    let envelope: EventEnvelope;
    try {
      envelope = JSON.parse(raw) as EventEnvelope;
    } catch (error) {
      return this.reject({ reason: 'malformed', error: `not JSON: ${(error as Error).message}`, raw }, delivery);
    }
    const problem = envelopeProblem(envelope);
    if (problem) return this.reject({ reason: 'malformed', error: problem, raw }, delivery);
    return this.handleEnvelope(envelope, delivery);
  }

  /**
   * Answers null for an event type this service does not handle (a topic carries several types). A type no
   * contract defines, or a version newer than the contract this service was built with, is parked: handling it
   * as if it were understood could do the wrong thing.
   */
  protected async handleEnvelope(envelope: EventEnvelope, delivery: Delivery = {}): Promise<DispatchOutcome | null> {
    const definition = knownEventType(envelope.type);
    if (!definition) return this.reject({ reason: 'unknown-type', error: `unknown event type "${envelope.type}"`, envelope }, delivery);
    const handler = this.getHandlerByPattern(envelope.type);
    if (!handler) return null;
    if (envelope.version > definition.version) {
      const error = `unsupported version ${envelope.version} of "${envelope.type}" (this consumer knows up to ${definition.version})`;
      return this.reject({ reason: 'unsupported-version', error, envelope }, delivery);
    }
    return this.dispatcher.dispatch(
      envelope,
      async (manager) => {
        const result: unknown = await handler(envelope, new EventContext([envelope, manager]));
        await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
      },
      delivery,
    );
  }

  private async reject(
    letter: { reason: 'malformed' | 'unknown-type' | 'unsupported-version'; error: string; envelope?: EventEnvelope; raw?: string },
    delivery: Delivery,
  ): Promise<DispatchOutcome> {
    await this.dispatcher.park({ ...letter, consumer: this.dispatcher.service, topic: delivery.topic, key: delivery.key }, delivery);
    return 'dead-lettered';
  }

  /** Whether events reach this service now (for readiness): consuming, or nothing to consume. */
  abstract ready(): boolean;

  on(): never {
    throw new Error('Event servers emit no status events');
  }

  unwrap<T>(): T {
    throw new Error('Event servers wrap no client');
  }
}

/** What makes a parsed message unusable as an envelope, or null when it is one. */
function envelopeProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'not an event envelope';
  const { id, type, version } = value as Partial<EventEnvelope>;
  if (typeof id !== 'string' || !UUID.test(id)) return 'envelope without a valid id';
  if (typeof type !== 'string' || type.length === 0) return 'envelope without a type';
  if (!Number.isInteger(version) || (version as number) < 1) return 'envelope without a valid version';
  if (!('payload' in value)) return 'envelope without a payload';
  return null;
}
