import { Controller, Get, Headers, HttpCode, Logger, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { DomainError, IngestCommentsReply } from '@app/contracts';
import { Public } from '@app/observability';
import { CommandClient } from '@app/messaging';
import { commentsInMetaWebhook, isValidMetaSignature } from './meta-webhook';
import { ApiErrors } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { RawBodyRequest } from '../http/json-body';

/**
 * Meta's webhooks (Facebook Pages feed, Instagram comments). Public: Meta
 * carries no API key; the signature is the authentication. A call that is not
 * signed with the app secret is refused before anything is read from it.
 */
@ApiTags('platform webhooks')
@Controller('webhooks/meta')
@Public()
export class MetaWebhookController {
  private readonly logger = new Logger(MetaWebhookController.name);

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
    // Meta expects 200 OK for every delivery it should not send again, and retries one that
    // failed over the next 36 hours (https://developers.facebook.com/docs/graph-api/webhooks/getting-started/).
    // So: an entry that cannot be read, or that the comments service refuses, is skipped alone
    // (it would fail on every retry); an unavailable service fails the delivery so Meta sends it
    // again, which is safe because a comment seen twice is stored once.
    const { commands, skipped } = commentsInMetaWebhook(request.body);
    // All at once: Meta batches up to 1000 changes in one delivery (same page), and the comments
    // service ingests the commands it holds together (one look-up per item, appends grouped).
    const counts = await Promise.all(
      commands.map(async (command) => {
        try {
          return (await this.commands.request('comments.ingest-webhook', command, request.id)).received;
        } catch (error) {
          if (!(error instanceof DomainError) || error.code === 'service_unavailable') throw error;
          this.logger.warn(`Meta webhook: comment ${command.comments[0]?.platformCommentId} refused (${error.code}): ${error.message}`);
          return 0;
        }
      }),
    );
    const received = counts.reduce((sum, count) => sum + count, 0);
    if (skipped) this.logger.warn(`Meta webhook: ${skipped} entries skipped (a value out of range, or text that cannot be stored)`);
    return { received };
  }
}
