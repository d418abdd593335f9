import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountCandidate, ERROR_CODES, ErrorBody, ErrorCode } from '@app/contracts';

export class AccountCandidateSchema implements AccountCandidate {
  @ApiProperty() accountId!: string;
  @ApiProperty({ description: 'platform identifier' }) platform!: string;
  @ApiProperty({ description: 'the handle' }) account!: string;
  @ApiProperty() connected!: boolean;
}

export class ErrorSchema {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), description: 'stable, machine-readable; the operation lists the codes it can answer' })
  code!: ErrorCode;
  @ApiProperty({ description: 'for people; may change' }) message!: string;
  @ApiPropertyOptional({ type: [AccountCandidateSchema], description: 'on ambiguous_account and ambiguous_platform' })
  candidates?: AccountCandidate[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'more to say: the offending index, the missing scopes (`missing`), the current version' })
  details?: unknown;
}

/** The one error body shape of every error response. */
export class ErrorBodySchema implements ErrorBody {
  @ApiProperty({ type: ErrorSchema }) error!: ErrorSchema;
}
