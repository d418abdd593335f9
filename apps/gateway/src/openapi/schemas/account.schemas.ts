import { ApiProperty } from '@nestjs/swagger';
import { BoardsReply, PlatformBoard, PLATFORMS } from '@app/contracts';
import { ACCOUNT_STATUSES, AccountStatus } from '@app/accounts';

/** An account as the API shows it: the source of account ids, with its health. */
export class AccountSchema {
  @ApiProperty({ description: 'the account id, usable in accounts and accountId' }) id!: string;
  @ApiProperty({ enum: PLATFORMS }) platform!: string;
  @ApiProperty({ description: 'the handle, e.g. @acme' }) account!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ enum: ACCOUNT_STATUSES, description: 'connected; needs_reauth (the platform refused its credential: connect it again); disconnected' }) status!: AccountStatus;
  @ApiProperty({ type: String, nullable: true, description: 'why it needs re-authorisation or was disconnected (a stable code)' }) statusReason!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'since when it has this status' }) statusSince!: string;
  @ApiProperty({ type: String, nullable: true, description: "the platform's own id (user, page, channel, DID, URN)" }) platformAccountId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Mastodon instance or Bluesky PDS' }) instanceUrl!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the current access token ends (renewed ahead of it)' }) tokenExpiresAt!: string | null;
  @ApiProperty({ type: [String], description: 'scopes the platform granted' }) scopes!: string[];
  @ApiProperty({ type: 'string', format: 'date-time' }) createdAt!: string;
}

export class AccountListSchema {
  @ApiProperty({ type: [AccountSchema] }) accounts!: AccountSchema[];
}

export class ConnectedAccountsSchema {
  @ApiProperty({ type: [AccountSchema], description: 'every account the credential (or the completed sign-in) gave (a Facebook user token gives its pages and their Instagram accounts)' })
  accounts!: AccountSchema[];
}

export class StartConnectSchema {
  @ApiProperty({ description: "the platform's consent page: send the user there" }) authorizationUrl!: string;
  @ApiProperty({ description: 'the signed, single-use state the platform will hand back' }) state!: string;
  @ApiProperty({
    description:
      'the secret that completes this sign-in with POST /api/v1/accounts/connect/complete: keep it on your backend with the session of the user who started it, never in a url; answered once (only its digest is stored)',
  })
  verifier!: string;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'the sign-in must be finished before this' }) expiresAt!: string;
}

export class BoardSchema implements PlatformBoard {
  @ApiProperty({ description: 'the board id Pinterest gives: what platformOptions.pinterest.boardId takes', example: '549755885175' }) id!: string;
  @ApiProperty({ example: 'Launches' }) name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  // OpenAPI 3.0.3: nullable does not reach past enum, so null is one of the values.
  @ApiProperty({ type: String, nullable: true, enum: ['PUBLIC', 'PROTECTED', 'SECRET', null] as string[] }) privacy!: string | null;
}

export class BoardsSchema implements BoardsReply {
  @ApiProperty({ type: [BoardSchema], description: "every board of the account, as Pinterest's List boards gives them (all pages)" }) boards!: BoardSchema[];
}
