import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { SERVICE_NAME } from './tokens';

/** Liveness (the process answers) and readiness (its database answers), for probes and the gateway. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(@Inject(SERVICE_NAME) private readonly service: string, private readonly dataSource: DataSource) {}

  @Get('live')
  live() {
    return { service: this.service, status: 'up' };
  }

  @Get('ready')
  async ready() {
    try {
      await this.dataSource.query('SELECT 1');
      return { service: this.service, status: 'up' };
    } catch {
      throw new ServiceUnavailableException({ message: `${this.service} 数据库不可用`, data: { service: this.service, status: 'down' } });
    }
  }
}
