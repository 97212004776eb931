export * from './events/event-envelope';
export * from './events/event-definition';
