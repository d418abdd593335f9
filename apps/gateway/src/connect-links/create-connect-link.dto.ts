import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { CONNECT_LINK_DEFAULT_TTL_SECONDS, CONNECT_LINK_MAX_TTL_SECONDS, PLATFORMS, Platform } from '@app/contracts';

/** The page's white label. */
export class ConnectLinkBrandDto {
  @ApiPropertyOptional({ description: 'shown as the page title ("Connect your accounts to <name>")', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  @ApiPropertyOptional({ description: 'an https url of the logo image (shown at most 48 px high)', maxLength: 2048 })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @IsUrl({ protocols: ['https'], require_protocol: true, require_tld: false }, { message: 'brand.logoUrl must be an https url' })
  logoUrl?: string;

  @ApiPropertyOptional({ description: 'the buttons\' colour: #rgb or #rrggbb', example: '#1a73e8' })
  @IsOptional()
  @IsString()
  @Matches(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, { message: 'brand.accentColor must be a hex colour, #rgb or #rrggbb, such as #1a73e8' })
  accentColor?: string;
}

/** POST /api/v1/connect-links. */
export class CreateConnectLinkDto {
  @ApiProperty({
    description:
      'where the page\'s "Done" sends the end user, with account_ids=<id>,<id> or error=access_denied; judged as a sign-in\'s redirectUri (https, public host, the workspace\'s origins when it has some)',
    maxLength: 2048,
  })
  @IsString()
  @MaxLength(2048)
  redirectUri!: string;

  @ApiPropertyOptional({ enum: PLATFORMS, isArray: true, description: 'the platforms the page offers, in this order; default every platform' })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(PLATFORMS.length * 2)
  @IsIn(PLATFORMS, { each: true })
  platforms?: Platform[];

  @ApiPropertyOptional({ description: 'how long the link works', minimum: 60, maximum: CONNECT_LINK_MAX_TTL_SECONDS, default: CONNECT_LINK_DEFAULT_TTL_SECONDS })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(CONNECT_LINK_MAX_TTL_SECONDS)
  expiresInSeconds?: number;

  @ApiPropertyOptional({ type: ConnectLinkBrandDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => ConnectLinkBrandDto)
  brand?: ConnectLinkBrandDto;
}
