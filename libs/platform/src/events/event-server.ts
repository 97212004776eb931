import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import type { EventEnvelope } from '@shiliu/contracts';
import { knownEventType, topicsOfEventType } from '@shiliu/contracts';
import { lastValueFrom } from 'rxjs';
import type { EntityManager } from 'typeorm';
import type { Delivery, Dispatch, DispatchOutcome, EventDispatcher } from './event-dispatcher';
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
   * One handler per event type in a service: Nest would run a second one side by side with the first, in the same
   * transaction and in no set order. Effects of one event that must happen in order belong in one handler class.
   */
  override addHandler(pattern: string, callback: MessageHandler, isEventHandler?: boolean, extras?: Record<string, unknown>): void {
    if (this.messageHandlers.has(this.normalizePattern(pattern))) {
      throw new Error(`two handlers for event "${pattern}" in service ${this.dispatcher.service}: give each event type one handler`);
    }
    super.addHandler(pattern, callback, isEventHandler, extras);
  }

  /**
   * The topics this service must read, from the event types its handlers name (a type may travel on several,
   * see `alsoOnTopic`); an unknown type stops start-up.
   */
  protected subscribedTopics(): string[] {
    return [...new Set([...this.getHandlers().keys()].flatMap((type) => topicsOfEventType(type)))];
  }

  /**
   * Messages of one partition as they arrived, in order: runs of events this service handles go through the
   * dispatcher together (one transaction each run); what cannot be read, or must be parked, is parked in its place.
   */
  protected async handleMessages(messages: { raw: string; delivery: Delivery }[]): Promise<void> {
    await this.handleSteps(
      messages.map(({ raw, delivery }) => {
        const read = readEnvelope(raw);
        return { step: read.envelope ? this.stepOf(read.envelope, delivery) : { park: read.rejection }, delivery };
      }),
    );
  }

  /** Events already read, in order (the in-process bus hands over a relay's batch), taken in runs as `handleMessages` does. */
  protected async handleEnvelopes(events: { envelope: EventEnvelope; delivery: Delivery }[]): Promise<void> {
    await this.handleSteps(events.map(({ envelope, delivery }) => ({ step: this.stepOf(envelope, delivery), delivery })));
  }

  private async handleSteps(steps: { step: Step | null; delivery: Delivery }[]): Promise<void> {
    let run: Dispatch[] = [];
    for (const { step, delivery } of steps) {
      if (step === null) continue;
      if (step.dispatch) {
        run.push(step.dispatch);
        continue;
      }
      if (run.length > 0) await this.dispatcher.dispatchAll(run);
      run = [];
      await this.reject(step.park, delivery);
    }
    if (run.length > 0) await this.dispatcher.dispatchAll(run);
  }

  /**
   * What to do with a message: null for an event type this service does not handle (a topic carries several
   * types), its handler's dispatch, or the dead letter for it. A type no contract defines, or a version newer than
   * the contract this service was built with, is parked: handling it as if it were understood could do the wrong thing.
   */
  private stepOf(envelope: EventEnvelope, delivery: Delivery): Step | null {
    const definition = knownEventType(envelope.type);
    if (!definition) return { park: { reason: 'unknown-type', error: `unknown event type "${envelope.type}"`, envelope } };
    // Not getHandlerByPattern: it first tries the type as JSON, and the exception a plain name throws showed in a busy process's profile.
    const handler = this.messageHandlers.get(envelope.type);
    if (!handler) return null;
    if (envelope.version > definition.version) {
      const error = `unsupported version ${envelope.version} of "${envelope.type}" (this consumer knows up to ${definition.version})`;
      return { park: { reason: 'unsupported-version', error, envelope } };
    }
    const handle = async (manager: EntityManager): Promise<void> => {
      const result: unknown = await handler(envelope, new EventContext([envelope, manager]));
      await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
    };
    return { dispatch: { envelope, delivery, handle } };
  }

  private async reject(letter: Rejection, delivery: Delivery): Promise<DispatchOutcome> {
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

/** Why a message is parked without reaching a handler. */
interface Rejection {
  reason: 'malformed' | 'unknown-type' | 'unsupported-version';
  error: string;
  envelope?: EventEnvelope;
  raw?: string;
}

type Step = { dispatch: Dispatch; park?: never } | { dispatch?: never; park: Rejection };

/** A message as it arrived on a topic, or why it cannot be read as an envelope: that is parked, never thrown back at the transport. */
function readEnvelope(raw: string): { envelope: EventEnvelope; rejection?: never } | { envelope?: never; rejection: Rejection } {
  let envelope: EventEnvelope;
  try {
    envelope = JSON.parse(raw) as EventEnvelope;
  } catch (error) {
    return { rejection: { reason: 'malformed', error: `not JSON: ${(error as Error).message}`, raw } };
  }
  const problem = envelopeProblem(envelope);
  return problem ? { rejection: { reason: 'malformed', error: problem, raw } } : { envelope };
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
