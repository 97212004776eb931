// What a process without a database, events, a queue or object storage needs (the distributed gateway): loading the
// whole platform would bring TypeORM, kafkajs, BullMQ, MinIO's client and class-validator into it, memory it would
// hold for nothing (libs/gateway/test/footprint.spec.ts names what it must not load).
export * from './auth/access-token.guard';
export * from './auth/auth.decorators';
export * from './auth/revocation-list';
export * from './auth/token-verifier';
export * from './config/config';
export * from './context/request-context';
export * from './http/answer-tracker';
export * from './http/client-errors';
export * from './http/envelope';
export * from './http/envelope.interceptor';
export * from './http/exception.filter';
export * from './http/input-guard';
export * from './http/messages';
export * from './http/too-many-requests';
export * from './logging/logger';
export * from './logging/nest-logger';
export * from './metrics/metrics';
export * from './metrics/metrics-server';
export * from './service/lean-async-bind';
export * from './service/unhandled-rejections';
export * from './service/service-definition';
