import { Controller, Get, HttpException, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { envelope } from '@shiliu/platform/core';
import type { ServiceProbe } from './service-probe';

export const GATEWAY_OPTIONS = Symbol('GATEWAY_OPTIONS');

export interface GatewayRouteOptions {
  mode: 'embedded' | 'distributed';
  probe: ServiceProbe;
  openApi: () => Promise<OpenAPIObject>;
}

/** The /api calls the gateway answers itself (below), all GETs: the front door refuses other methods there. */
export const gatewayOwnPaths: readonly string[] = ['/api/health', '/api/docs/openapi.json'];

/** The calls the gateway answers itself. */
@Controller('api')
export class GatewayController {
  constructor(@Inject(GATEWAY_OPTIONS) private readonly options: GatewayRouteOptions) {}

  /** 200 when every service is ready, 503 naming the ones that are not. */
  @Get('health')
  async health() {
    const services = await this.options.probe();
    const down = Object.entries(services).filter(([, status]) => status === 'down');
    const data = { status: down.length === 0 ? 'up' : 'degraded', mode: this.options.mode, services };
    if (down.length > 0) throw new HttpException(envelope(503, `服务不可用: ${down.map(([name]) => name).join(', ')}`, data), 503);
    return data;
  }

  /** The raw document, outside the envelope, as OpenAPI tools expect it. */
  @Get('docs/openapi.json')
  async openApi(@Res() response: Response): Promise<void> {
    response.json(await this.options.openApi());
  }
}

/** The gateway process itself answers: for probes that must not fail because one service behind it is down. */
@Controller('health')
export class GatewayProbeController {
  @Get('live')
  live() {
    return { service: 'gateway', status: 'up' };
  }
}
