import { Controller, Get, Headers, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { DomainError, IngestCommentsReply } from '@app/contracts';
import { Public } from '@app/health';
import { CommandClient } from '@app/messaging';
import { commentsInMetaWebhook, isValidMetaSignature } from './meta-webhook';
import { ApiErrors } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { RawBodyRequest } from './raw-body.capture';

/**
 * Meta's webhooks (Facebook Pages feed, Instagram comments). Public: Meta
 * carries no API key; the signature is the authentication. A call that is not
 * signed with the app secret is refused before anything is read from it.
 */
@ApiTags('webhooks')
@Controller('webhooks/meta')
@Public()
export class MetaWebhookController {
  constructor(
    private readonly config: AppConfig,
    private readonly commands: CommandClient,
  ) {}

  /** The subscription handshake: echo hub.challenge when the verify token matches. */
  @Get()
  @ApiOperation({ summary: "Meta's subscription handshake (hub.mode, hub.verify_token, hub.challenge)" })
  @ApiErrors(...OPERATION_ERRORS.verifyMetaWebhook)
  verify(@Query('hub.mode') mode: string | undefined, @Query('hub.verify_token') token: string | undefined, @Query('hub.challenge') challenge: string | undefined): string {
    const expected = this.config.metaWebhookVerifyToken;
    if (mode !== 'subscribe' || !expected || token !== expected || challenge === undefined) {
      throw new DomainError('webhook_verification_failed', 'hub.mode must be subscribe and hub.verify_token the configured verify token');
    }
    return challenge;
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Comments from Meta (Facebook Pages feed, Instagram), signed with X-Hub-Signature-256' })
  @ApiErrors(...OPERATION_ERRORS.receiveMetaWebhook)
  async receive(@Req() request: RawBodyRequest, @Headers('x-hub-signature-256') signature: string | undefined): Promise<IngestCommentsReply> {
    const secret = this.config.metaAppSecret;
    if (!secret) throw new DomainError('webhook_signature_invalid', 'Meta webhooks are not configured on this service (META_APP_SECRET is not set)');
    if (!request.rawBody || !isValidMetaSignature(request.rawBody, signature, secret)) {
      throw new DomainError('webhook_signature_invalid', 'X-Hub-Signature-256 is missing or is not sha256=<HMAC-SHA256 of the body with the app secret>');
    }
    let received = 0;
    for (const command of commentsInMetaWebhook(request.body)) {
      received += (await this.commands.request<IngestCommentsReply>('comments.ingest-webhook', command, request.id)).received;
    }
    return { received };
  }
}
