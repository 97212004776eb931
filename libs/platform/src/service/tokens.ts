/** Injection tokens for what the platform hands every service module. */
export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const LOGGER = Symbol('LOGGER');
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');
export const REDIS = Symbol('REDIS');
export const SERVICE_SECRETS = Symbol('SERVICE_SECRETS');
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
export const REVOCATION_LIST = Symbol('REVOCATION_LIST');

/** A client the service cannot work without (Kafka, Redis): readiness is down while it is not connected. */
export interface ReadinessCheck {
  name: string;
  ready(): boolean;
}

/** Secrets only some services need (auth signs tokens and encrypts personal data); absent elsewhere. */
export interface ServiceSecrets {
  tokenPrivateKeyPem?: string;
  /** 32 bytes, base64: encrypts personal data at rest. */
  dataEncryptionKey?: string;
}
