import { SetMetadata } from '@nestjs/common';

export const NOT_COUNTED = 'rateLimitNotCounted';

/**
 * An authenticated operation the rate limits do not count: asking where a key
 * stands (GET /api/v1/me) uses up nothing and is answered while the key is
 * refused, as GitHub's GET /rate_limit is
 * (https://docs.github.com/en/rest/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user).
 */
export const NotCounted = () => SetMetadata(NOT_COUNTED, true);
