import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { NestedArrayOf } from '../validation/nested-dtos';

/** One weekly slot (types only: the day and time rules are the posts service's, invalid_schedule_slot). */
export class ScheduleSlotDto {
  @ApiProperty({ description: 'mon..sun or monday..sunday (any case)', example: 'mon' }) @IsString() day!: string;
  @ApiProperty({ description: 'HH:MM on a 24-hour clock, in the schedule\'s time zone', example: '09:00' }) @IsString() time!: string;
}

/** The refusal of `slots` that is not an array of objects. */
export const SLOTS_SHAPE = 'slots must be an array of objects with day (string) and time (string)';

/** PUT /api/v1/accounts/:id/schedule: the whole schedule (it replaces the one before). */
export class SetScheduleDto {
  @ApiProperty({ description: 'IANA time zone the slot times are read in', example: 'Europe/Berlin' }) @IsString() timezone!: string;
  @ApiProperty({ type: [ScheduleSlotDto], description: 'the weekly slots (at most 200; duplicates are kept once; [] empties the queue)' })
  @NestedArrayOf(() => ScheduleSlotDto, SLOTS_SHAPE)
  slots!: ScheduleSlotDto[];
}
