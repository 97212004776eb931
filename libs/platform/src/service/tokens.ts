/** Injection tokens for what the platform hands every service module. */
export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const LOGGER = Symbol('LOGGER');
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');
