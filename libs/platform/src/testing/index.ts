// Test helpers, imported as `@shiliu/platform/testing`: kept out of the production exports.
export * from './event-stream';
export * from './infra';
export * from './private-postgres';
export * from './service-test-app';
export * from './snapshots';
export * from './tcp-proxy';
export * from './test-runtime';
export * from './documented-answer';
