import { Controller, Get, Header } from '@nestjs/common';
// The decorator's own file: @app/health's index loads @app/messaging, which loads this lib (a require cycle).
import { Public } from '@app/health/public.decorator';
import { metricsRegistry } from './metrics';

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
