import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_WEBHOOK_URL_CHARS, SUBSCRIBABLE_WEBHOOK_EVENT_TYPES } from '@app/contracts';
import { CursorParameter } from '../posts/list-posts.query';

const MAX_DESCRIPTION_CHARS = 500;
const DELIVERY_LOG_MAX = 100;

const eventsProperty: ApiPropertyOptions = {
  type: 'array',
  items: { type: 'string', enum: [...SUBSCRIBABLE_WEBHOOK_EVENT_TYPES] },
  description: 'the event types to deliver (webhook.disabled notices go to every enabled endpoint without asking)',
};

/** POST /api/v1/webhooks. The rules (https, the address, known event types) are the webhooks service's. */
export class CreateWebhookDto {
  @ApiProperty({ description: 'where deliveries are POSTed: https (http only for hosts in WEBHOOK_ALLOWED_HOSTS), a public address', maxLength: MAX_WEBHOOK_URL_CHARS })
  @IsString() @MaxLength(MAX_WEBHOOK_URL_CHARS * 2) url!: string;
  @ApiProperty(eventsProperty)
  @IsArray() @ArrayMaxSize(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.length * 2) @IsString({ each: true }) @MaxLength(64, { each: true }) events!: string[];
  @ApiPropertyOptional({ type: String, maxLength: MAX_DESCRIPTION_CHARS })
  @IsOptional() @IsString() @MaxLength(MAX_DESCRIPTION_CHARS) description?: string;
}

/** PATCH /api/v1/webhooks/:id: the fields given replace the endpoint's. */
export class UpdateWebhookDto {
  @ApiPropertyOptional({ maxLength: MAX_WEBHOOK_URL_CHARS }) @IsOptional() @IsString() @MaxLength(MAX_WEBHOOK_URL_CHARS * 2) url?: string;
  @ApiPropertyOptional(eventsProperty)
  @IsOptional() @IsArray() @ArrayMaxSize(SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.length * 2) @IsString({ each: true }) @MaxLength(64, { each: true }) events?: string[];
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_DESCRIPTION_CHARS })
  @IsOptional() @ValidateIf((_, value) => value !== null) @IsString() @MaxLength(MAX_DESCRIPTION_CHARS) description?: string | null;
  @ApiPropertyOptional({ description: 'false stops deliveries (they queue up); true resumes them and clears a disabled reason' })
  @IsOptional() @IsBoolean() enabled?: boolean;
}

/** POST /api/v1/webhooks/:id/replay: exactly one of the two. */
export class ReplayWebhookDto {
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'every event stored at or after this time' })
  @IsOptional() @IsString() @MaxLength(64) since?: string;
  @ApiPropertyOptional({ description: 'every event stored after this position (a payload\'s position, or lastPosition of an earlier replay)' })
  @IsOptional() @IsString() @MaxLength(64) afterPosition?: string;
}

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ enum: ['pending', 'delivered', 'failed'] })
  @IsOptional() @IsIn(['pending', 'delivered', 'failed']) status?: 'pending' | 'delivered' | 'failed';
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: DELIVERY_LOG_MAX, default: 50 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(DELIVERY_LOG_MAX) limit?: number;
  @CursorParameter() cursor?: string;
}
