import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/**
 * Marks a route as needing no API key (health checks, metrics, platform webhooks). It lives
 * in the lowest lib that has a public route (GET /metrics) so that libs/health, which builds on
 * messaging and this lib, can use it without the three needing one another in a cycle.
 */
export const Public = () => SetMetadata(IS_PUBLIC, true);
