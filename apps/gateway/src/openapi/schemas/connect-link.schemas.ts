import { ApiProperty } from '@nestjs/swagger';

/** POST /api/v1/connect-links answers the link once. */
export class ConnectLinkCreatedSchema {
  @ApiProperty({ description: 'the link\'s id, for DELETE /api/v1/connect-links/:id' }) id!: string;
  @ApiProperty({ description: 'the page to hand the end user: <gateway>/connect/<signed token>; anyone holding it can connect accounts to this workspace until it expires or is revoked' }) url!: string;
  @ApiProperty({ type: 'string', format: 'date-time' }) expiresAt!: string;
}
