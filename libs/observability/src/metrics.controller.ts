import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { metricsRegistry } from './metrics';
import { Public } from './public-route';

/** GET /metrics: the process's metrics in the Prometheus text format, for a scraper (no API key). */
@ApiTags('metrics')
@Controller()
export class MetricsController {
  @Public()
  @Get('metrics')
  @ApiOperation({ summary: "The process's metrics, Prometheus text format" })
  @ApiProduces(metricsRegistry.contentType)
  @ApiOkResponse({ description: 'the metrics', schema: { type: 'string' } })
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
