import { ApiProperty } from '@nestjs/swagger';
import { PLATFORMS } from '@app/contracts';
import { AccountStatus } from '@app/workspaces';

const ACCOUNT_STATUSES: AccountStatus[] = ['connected', 'disconnected'];

/** An entry of GET /api/v1/accounts: the source of account ids. */
export class AccountSchema {
  @ApiProperty({ description: 'the account id, usable in accounts and accountId' }) id!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: 'the handle, e.g. @acme' }) account!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ enum: ACCOUNT_STATUSES }) status!: AccountStatus;
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
}

export class AccountListSchema {
  @ApiProperty({ type: [AccountSchema] }) accounts!: AccountSchema[];
}
