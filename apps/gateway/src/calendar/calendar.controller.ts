import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { CALENDAR_MAX_DAYS, CalendarDay, DomainError } from '@app/contracts';
import { isTimeZone, localDateRange } from '@app/queues';
import { QueueViewsReader } from '@app/read-models';
import { KeyPrincipal } from '@app/workspaces';
import { Principal } from '../auth/principal';
import { RequireScopes } from '../auth/scopes.decorator';
import { ApiErrors, AUTHENTICATED_ERRORS } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { CalendarSchema } from '../openapi/schemas/queue.schemas';
import { queryValidation } from '../validation/validation-pipes';
import { CalendarQuery } from './calendar.query';

/** A calendar view: the days of a range, each with its posts and the queues' free slots. */
@ApiTags('calendar')
@ApiErrors(...AUTHENTICATED_ERRORS)
@Controller('api/v1/calendar')
export class CalendarController {
  constructor(
    private readonly queues: QueueViewsReader,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireScopes('read')
  @ApiOperation({
    summary: 'Days from from to to (in tz) with their posts and free queue slots',
    description: `Posts scheduled or published each day (by published time once published), and every account's free queue slots (future ones). At most ${CALENDAR_MAX_DAYS} days.`,
  })
  @ApiOkResponse({ type: CalendarSchema })
  @ApiErrors(...OPERATION_ERRORS.calendar)
  async calendar(@Principal() principal: KeyPrincipal, @Query(queryValidation) query: CalendarQuery): Promise<{ tz: string; days: CalendarDay[]; truncated: boolean }> {
    const tz = query.tz ?? 'UTC';
    if (!isTimeZone(tz)) throw new DomainError('invalid_time_zone', `tz must be an IANA time zone such as Europe/Berlin, not ${JSON.stringify(tz)}`);
    const range = localDateRange(query.from, query.to, tz);
    if (!range) throw invalidQuery('from and to must be real dates (YYYY-MM-DD)');
    if (range.days < 1) throw invalidQuery('from must be on or before to');
    if (range.days > CALENDAR_MAX_DAYS) {
      throw new DomainError('range_too_long', `the calendar spans at most ${CALENDAR_MAX_DAYS} days; from ${query.from} to ${query.to} is ${range.days}`, { details: { maxDays: CALENDAR_MAX_DAYS } });
    }
    const { days, truncated } = await this.queues.calendar(principal.workspaceId, { from: range.start, to: range.end, zone: tz, now: this.config.now() });
    return { tz, days, truncated };
  }
}

function invalidQuery(message: string): DomainError {
  return new DomainError('invalid_query', message, { details: [message] });
}
