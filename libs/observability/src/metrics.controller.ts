import { Controller, Get, Header } from '@nestjs/common';
import { metricsRegistry } from './metrics';
import { Public } from './public-route';

/** GET /metrics: the process's metrics in the Prometheus text format, for a scraper (no API key). */
@Controller()
export class MetricsController {
  @Public()
  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
