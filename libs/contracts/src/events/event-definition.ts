import type { Topic } from './event-envelope';

/**
 * One event type: its name, contract version, the topic it travels on and the aggregate id that keys it,
 * so that every event of one aggregate lands on one partition and stays in order.
 */
export interface EventDefinition<TPayload> {
  readonly type: string;
  readonly version: number;
  readonly topic: Topic | string;
  readonly key: (payload: TPayload) => string;
}

const registry = new Map<string, EventDefinition<never>>();

export function defineEvent<TPayload>(definition: EventDefinition<TPayload>): EventDefinition<TPayload> {
  const known = registry.get(definition.type);
  if (known && known.topic !== definition.topic) {
    throw new Error(`Event type ${definition.type} is defined twice with different topics`);
  }
  registry.set(definition.type, definition as unknown as EventDefinition<never>);
  return definition;
}

/** The definition of an event type, or undefined for a type no contract defines. */
export function knownEventType(type: string): EventDefinition<never> | undefined {
  return registry.get(type);
}

/** The topic an event type travels on; consumers subscribe by the types their handlers name. */
export function topicOfEventType(type: string): string {
  const definition = registry.get(type);
  if (!definition) {
    throw new Error(`Unknown event type "${type}": define it in @shiliu/contracts before handling it`);
  }
  return definition.topic;
}
