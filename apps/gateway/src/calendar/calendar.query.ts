import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class CalendarQuery {
  @ApiProperty({ description: 'the first day, a local date in tz (YYYY-MM-DD)', example: '2026-11-01' }) @Matches(DATE, { message: 'from must be a date YYYY-MM-DD' }) from!: string;
  @ApiProperty({ description: 'the last day (included), a local date in tz (YYYY-MM-DD); at most 62 days after from', example: '2026-11-30' })
  @Matches(DATE, { message: 'to must be a date YYYY-MM-DD' })
  to!: string;
  @ApiPropertyOptional({ description: 'IANA time zone the days are cut in (default UTC)', example: 'Europe/Berlin' }) @IsOptional() @IsString() tz?: string;
}
