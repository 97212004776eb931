import { type EventDefinition, topicOfEventType } from './event-definition';

const extraTopics = new Map<string, Set<string>>();

/**
 * The same event type sent on a further topic: `user.mentioned` travels on the topic of the note or the comment
 * it came from, keyed by that aggregate, so that it stays in order with the events of the thing that caused it.
 * The returned definition is what a producer hands its outbox; consumers subscribe with `topicsOfEventType`.
 */
export function alsoOnTopic<T>(definition: EventDefinition<T>, topic: string, key: (payload: T) => string): EventDefinition<T> {
  const topics = extraTopics.get(definition.type) ?? new Set<string>();
  topics.add(topic);
  extraTopics.set(definition.type, topics);
  return { ...definition, topic, key };
}

/** Every topic an event type travels on: its own first, then those added with `alsoOnTopic`. */
export function topicsOfEventType(type: string): string[] {
  return [topicOfEventType(type), ...(extraTopics.get(type) ?? [])];
}
