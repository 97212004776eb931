// The one-process host and its database, apart from the package's index: the distributed gateway would otherwise
// load the whole platform (TypeORM, kafkajs, MinIO's client) through them.
export * from './embedded-host';
export * from './embedded-postgres';
