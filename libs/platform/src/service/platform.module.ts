import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, HttpAdapterHost } from '@nestjs/core';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AdminActionInterceptor } from '../admin/admin-action.interceptor';
import { AccessTokenGuard } from '../auth/access-token.guard';
import type { RevocationList } from '../auth/revocation-list';
import { TokenVerifier } from '../auth/token-verifier';
import { Outbox } from '../events/outbox';
import { EnvelopeInterceptor } from '../http/envelope.interceptor';
import { EnvelopeExceptionFilter } from '../http/exception.filter';
import { createValidationPipe } from '../http/validation.pipe';
import type { ObjectStorage } from '../storage/object-storage';
import { HealthController } from './health.controller';
import { LOGGER, OBJECT_STORAGE, READINESS_CHECKS, type ReadinessCheck, REDIS, REVOCATION_LIST, SERVICE_NAME, SERVICE_SECRETS, type ServiceSecrets } from './tokens';
import type { Redis } from 'ioredis';

export interface PlatformModuleOptions {
  service: string;
  dataSource: DataSource;
  tokenVerifier: TokenVerifier;
  revocations: RevocationList;
  objectStorage: ObjectStorage;
  logger: Logger;
  /** Redis in distributed mode; null in embedded mode, where caches and limits live in memory. */
  redis: Redis | null;
  secrets: ServiceSecrets;
  /** Filled in as the service's clients are created; read at each readiness probe. */
  readinessChecks: ReadinessCheck[];
}

/** What every service module gets: its database, the outbox, storage, logging, and the HTTP conventions of DESIGN.md §4. */
@Global()
@Module({})
export class PlatformModule {
  static forService(options: PlatformModuleOptions): DynamicModule {
    return {
      module: PlatformModule,
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_NAME, useValue: options.service },
        { provide: DataSource, useValue: options.dataSource },
        { provide: TokenVerifier, useValue: options.tokenVerifier },
        { provide: REVOCATION_LIST, useValue: options.revocations },
        { provide: OBJECT_STORAGE, useValue: options.objectStorage },
        { provide: LOGGER, useValue: options.logger },
        { provide: REDIS, useValue: options.redis },
        { provide: SERVICE_SECRETS, useValue: options.secrets },
        { provide: READINESS_CHECKS, useValue: options.readinessChecks },
        Outbox,
        { provide: APP_GUARD, useClass: AccessTokenGuard },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_INTERCEPTOR, useClass: AdminActionInterceptor },
        { provide: APP_FILTER, useFactory: (http: HttpAdapterHost) => new EnvelopeExceptionFilter(http, options.logger, options.service), inject: [HttpAdapterHost] },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
      exports: [SERVICE_NAME, DataSource, TokenVerifier, REVOCATION_LIST, OBJECT_STORAGE, LOGGER, REDIS, SERVICE_SECRETS, Outbox],
    };
  }
}
