import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MeView, RateLimitStandingView, Scope, SCOPES } from '@app/contracts';

class MeWorkspaceSchema {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

class MeKeySchema {
  @ApiProperty({ description: 'the key id (what `npm run admin -- key revoke` takes), never the key' }) id!: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes!: Scope[];
}

class RateLimitStandingSchema implements RateLimitStandingView {
  @ApiProperty({ description: 'requests allowed in any window of windowSeconds' }) limit!: number;
  @ApiProperty() windowSeconds!: number;
  @ApiProperty({ description: 'requests the key may still send now' }) remaining!: number;
  @ApiProperty({ description: "seconds until the key's usage is back to zero if it sends nothing more (as RateLimit-Reset)" }) resetSeconds!: number;
}

class MeRateLimitsSchema {
  @ApiPropertyOptional({ type: RateLimitStandingSchema, description: 'every request behind the key (absent when switched off)' }) general?: RateLimitStandingSchema;
  @ApiPropertyOptional({ type: RateLimitStandingSchema, description: 'POST /api/v1/comments/reply, on top of general (absent when switched off)' }) replies?: RateLimitStandingSchema;
}

export class MeSchema implements MeView {
  @ApiProperty({ type: MeWorkspaceSchema }) workspace!: MeWorkspaceSchema;
  @ApiProperty({ type: MeKeySchema }) key!: MeKeySchema;
  @ApiProperty({ type: MeRateLimitsSchema, description: 'where the key stands under each rate limit; asking counts nothing' }) rateLimits!: Record<string, RateLimitStandingSchema>;
}
