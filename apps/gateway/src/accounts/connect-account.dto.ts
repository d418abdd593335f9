import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PLATFORMS, Platform } from '@app/contracts';

/** POST /api/v1/accounts/connect: start a sign-in on the platform. */
export class StartConnectDto {
  @ApiProperty({ enum: PLATFORMS, description: 'the platform to sign in on (facebook and instagram share Facebook Login; bluesky connects with POST /api/v1/accounts)' })
  @IsIn(PLATFORMS)
  platform!: Platform;

  @ApiProperty({
    description:
      'where the user is sent back once the sign-in is done, with connection_id=… or error=…: an https url without credentials or fragment, on a public host (OAUTH_REDIRECT_ALLOWED_HOSTS lets development use localhost over http), on one of the workspace\'s allowed origins when it has some',
  })
  @IsString()
  @MaxLength(2048)
  redirectUri!: string;

  @ApiPropertyOptional({ description: 'Mastodon: the instance to sign in on (https); default the configured instance' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  instanceUrl?: string;
}

/** POST /api/v1/accounts/connect/complete: attach what a sign-in gave. */
export class CompleteConnectDto {
  @ApiProperty({ description: 'the connection_id the callback added to redirectUri' })
  @IsString()
  @MaxLength(64)
  connectionId!: string;

  @ApiProperty({ description: 'the verifier POST /api/v1/accounts/connect answered (keep it on your backend; never put it in a url)' })
  @IsString()
  @MaxLength(256)
  verifier!: string;
}

/**
 * A token is sent as an HTTP field value (Authorization: Bearer, RFC 6750 §2.1)
 * or form field: visible ASCII only. One with other characters can be no
 * platform's token, and could not even be sent to ask (fetch refuses it).
 */
const TOKEN_SYNTAX = /^[\x21-\x7E]+$/;
const tokenSyntax = (field: string) => Matches(TOKEN_SYNTAX, { message: `${field} must be visible ASCII characters (a token is sent in an HTTP header)` });

/** POST /api/v1/accounts: credentials obtained elsewhere, or a Bluesky app password. */
export class ConnectWithCredentialsDto {
  @ApiProperty({ enum: PLATFORMS }) @IsIn(PLATFORMS) platform!: Platform;
  @ApiPropertyOptional({ description: 'the platform access token (every platform but Bluesky)' }) @IsOptional() @IsString() @MaxLength(8192) @tokenSyntax('accessToken') accessToken?: string;
  @ApiPropertyOptional({ description: 'its refresh token, so the service can renew it' }) @IsOptional() @IsString() @MaxLength(8192) @tokenSyntax('refreshToken') refreshToken?: string;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'when the access token expires, if known' }) @IsOptional() @IsString() @MaxLength(64) expiresAt?: string;
  @ApiPropertyOptional({ description: 'Mastodon: the instance (https)' }) @IsOptional() @IsString() @MaxLength(2048) instanceUrl?: string;
  @ApiPropertyOptional({ description: 'Bluesky: handle, DID or email' }) @IsOptional() @IsString() @MaxLength(512) handle?: string;
  @ApiPropertyOptional({ description: 'Bluesky: an app password (Settings → App passwords), never the account password' }) @IsOptional() @IsString() @MaxLength(512) appPassword?: string;
  @ApiPropertyOptional({ description: "Bluesky: the account's PDS (https); default https://bsky.social" }) @IsOptional() @IsString() @MaxLength(2048) pds?: string;
}

/** The platform's redirect to GET /api/v1/accounts/connect/callback (OAuth 2.0 authorization response). */
export class ConnectCallbackQuery {
  @IsOptional() @IsString() @MaxLength(4096) state?: string;
  @IsOptional() @IsString() @MaxLength(4096) code?: string;
  @IsOptional() @IsString() @MaxLength(256) error?: string;
  @IsOptional() @IsString() @MaxLength(2048) error_description?: string;
}
