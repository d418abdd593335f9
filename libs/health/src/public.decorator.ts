import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** Marks a route as needing no API key (health checks). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
