export * from './events/event-envelope';
export * from './events/event-definition';
export * from './events/user-profile-snapshot';
export * from './events/user-registered.event';
export * from './events/user-updated.event';
export * from './events/user-verified.event';
export * from './events/user-deleted.event';
