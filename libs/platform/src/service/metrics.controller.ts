import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { metricsRegistry } from '../metrics/metrics';

/** Prometheus text format, outside the envelope, for scrapers. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  @Get()
  async metrics(@Res() response: Response): Promise<void> {
    response.setHeader('Content-Type', metricsRegistry.contentType);
    response.send(await metricsRegistry.metrics());
  }
}
