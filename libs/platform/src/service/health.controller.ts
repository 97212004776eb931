import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { READINESS_CHECKS, type ReadinessCheck, SERVICE_NAME } from './tokens';

/**
 * Liveness (the process answers) and readiness (its database answers, and every client it depends on, such as
 * Kafka and Redis, is connected), for probes and the gateway.
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    private readonly dataSource: DataSource,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
  ) {}

  @Get('live')
  live() {
    return { service: this.service, status: 'up' };
  }

  @Get('ready')
  async ready() {
    try {
      await this.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException({ message: `${this.service} 数据库不可用`, data: { service: this.service, status: 'down', down: ['database'] } });
    }
    const down = this.checks.filter((check) => !check.ready()).map((check) => check.name);
    if (down.length > 0) {
      throw new ServiceUnavailableException({ message: `${this.service} 依赖不可用：${down.join('、')}`, data: { service: this.service, status: 'down', down } });
    }
    return { service: this.service, status: 'up' };
  }
}
