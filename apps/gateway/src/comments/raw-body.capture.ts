import { Readable } from 'node:stream';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { FastifyInstance, FastifyRequest } from 'fastify';

/** Routes whose handler needs the exact bytes of the body (signature checks). */
export const RAW_BODY_PATHS = ['/webhooks/meta'];
/** Webhook bodies are small; anything larger is refused before it is held in memory. */
const RAW_BODY_LIMIT = 1024 * 1024;

export interface RawBodyRequest extends FastifyRequest {
  rawBody?: Buffer;
}

/**
 * Keeps the raw body of the RAW_BODY_PATHS requests beside the parsed one: a
 * preParsing hook reads the stream, stores the bytes on the request, and hands
 * the same bytes on to the usual JSON parser. Every other route is untouched.
 * (Fastify binds hooks to routes when it gets ready, so adding it at module
 * init covers the routes Nest registered just before.)
 */
@Injectable()
export class RawBodyCapture implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preParsing', async (request: RawBodyRequest, _reply, payload) => {
      if (!RAW_BODY_PATHS.includes(request.url.split('?')[0])) return payload;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload) {
        size += (chunk as Buffer).length;
        if (size > RAW_BODY_LIMIT) throw Object.assign(new Error('the body is too large'), { statusCode: 413 });
        chunks.push(chunk as Buffer);
      }
      request.rawBody = Buffer.concat(chunks);
      return Object.assign(Readable.from([request.rawBody]), { receivedEncodedLength: request.rawBody.length });
    });
  }
}
