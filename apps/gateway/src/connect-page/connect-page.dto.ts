import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PLATFORMS, Platform } from '@app/contracts';

/** The page's "Sign in with …" form. */
export class StartSignInForm {
  @IsIn(PLATFORMS) platform!: Platform;
  @IsOptional() @IsString() @MaxLength(2048) instanceUrl?: string;
}

/** The page's Bluesky form. */
export class AppPasswordForm {
  @IsString() @MinLength(1) @MaxLength(512) handle!: string;
  @IsString() @MinLength(1) @MaxLength(512) appPassword!: string;
}

/** Where a sign-in comes back to the page: the callback's connection_id, or the platform's error. */
export class ReturnQuery {
  @IsOptional() @IsString() @MaxLength(64) connection_id?: string;
  @IsOptional() @IsString() @MaxLength(256) error?: string;
  @IsOptional() @IsString() @MaxLength(2048) error_description?: string;
}
