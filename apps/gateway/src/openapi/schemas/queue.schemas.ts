import { ApiProperty } from '@nestjs/swagger';
import { POST_STATUSES } from '@app/contracts';
import { WEEKDAYS } from '@app/queues';

export class ScheduleSlotSchema {
  @ApiProperty({ enum: WEEKDAYS }) day!: string;
  @ApiProperty({ example: '09:00' }) time!: string;
}

/** An account's posting schedule. */
export class PostingScheduleSchema {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ example: 'Europe/Berlin' }) timezone!: string;
  @ApiProperty({ type: [ScheduleSlotSchema], description: 'each slot once, in week order (mon 00:00 first), days as mon..sun' }) slots!: ScheduleSlotSchema[];
  @ApiProperty({ type: 'string', format: 'date-time', description: 'when it was last set' }) updatedAt!: string;
}

export class PostingScheduleEnvelopeSchema {
  @ApiProperty({ type: PostingScheduleSchema }) schedule!: PostingScheduleSchema;
}

class QueueSlotSchema {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'the slot as an instant (UTC)' }) slotAt!: string;
  @ApiProperty({ description: "the slot's wall-clock time in the schedule's zone, with its offset" }) localTime!: string;
  // Inline: OpenAPI 3.0 has no nullable reference.
  @ApiProperty({
    type: 'object',
    nullable: true,
    description: 'the post that holds it; null: free',
    required: ['id', 'status', 'content'],
    properties: { id: { type: 'string', format: 'uuid' }, status: { type: 'string', enum: [...POST_STATUSES] }, content: { type: 'string', description: 'the first 500 characters of the content' } },
  })
  post!: { id: string; status: string; content: string } | null;
}

export class QueueSchema {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ type: String, nullable: true, description: 'the schedule\'s zone; null: the account has no schedule (and slots is empty)' }) timezone!: string | null;
  @ApiProperty({ type: [QueueSlotSchema], description: 'the next slots in time order, free or held, up to limit (90 days ahead at most)' }) slots!: QueueSlotSchema[];
}

class CalendarAccountSchema {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty() platform!: string;
  @ApiProperty({ description: 'the handle' }) account!: string;
}

class CalendarPostSchema {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: POST_STATUSES }) status!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) scheduledAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) publishedAt!: string | null;
  @ApiProperty({ description: 'the first 500 characters of the content' }) content!: string;
  @ApiProperty({ type: [CalendarAccountSchema] }) accounts!: CalendarAccountSchema[];
}

class FreeSlotSchema {
  @ApiProperty({ format: 'uuid' }) accountId!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) slotAt!: string;
}

class CalendarDaySchema {
  @ApiProperty({ description: 'the local date in tz', example: '2026-11-02' }) date!: string;
  @ApiProperty({ type: [CalendarPostSchema], description: 'posts scheduled or published that day (by published time once published), in time order' }) posts!: CalendarPostSchema[];
  @ApiProperty({ type: [FreeSlotSchema], description: "every account's free queue slots that day (future ones only), in time order" }) freeSlots!: FreeSlotSchema[];
}

export class CalendarSchema {
  @ApiProperty({ example: 'Europe/Berlin' }) tz!: string;
  @ApiProperty({ type: [CalendarDaySchema], description: 'every day from from to to, empty ones included' }) days!: CalendarDaySchema[];
  @ApiProperty({ description: 'true when the range holds more than 1,000 posts and only the first 1,000 are listed: ask for a shorter range' }) truncated!: boolean;
}
