import { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '@app/contracts';
import { JsonDepthMeter } from './json-depth';

/** What the JSON body reader needs to know of the route a request is for. */
export interface JsonBodyBounds {
  limitBytesOf(request: FastifyRequest): number;
  maxDepth: number;
  tooLarge(limitBytes: number): DomainError;
}

/** The bytes of the body as received, beside the parsed body. */
export interface RawBodyRequest extends FastifyRequest {
  rawBody?: Buffer;
}

/**
 * Fastify's application/json parser, replaced by one that reads the body once:
 * its bytes counted against the route's limit (413 with that limit) and their
 * nesting measured (400 invalid_body past maxDepth) as they arrive, kept as
 * request.rawBody, then handed to Fastify's own JSON parsing (prototype
 * poisoning refused, empty body and bad JSON its usual 400s). Before, a
 * preParsing hook read the body through an async iterator and fed a second
 * stream of it to Fastify's parser, which read it again: issue 22 measured the
 * iterator and the second stream on every request. Node's parser delivers
 * exactly the declared Content-Length or fails the stream, so the length needs
 * no second check here. A refusal closes the connection (Fastify's parser error
 * path does), as the rest of the body is never read.
 */
export function readJsonBodies(fastify: FastifyInstance, bounds: JsonBodyBounds): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (request: RawBodyRequest, payload, done) => {
    const limit = bounds.limitBytesOf(request);
    const depth = new JsonDepthMeter();
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error | null): void => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      if (error) done(error, undefined);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) return stop(bounds.tooLarge(limit));
      if (!depth.feed(chunk, bounds.maxDepth)) {
        return stop(new DomainError('invalid_body', `the body is nested deeper than ${bounds.maxDepth} levels`, { details: { maxDepth: bounds.maxDepth } }));
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop(null);
      request.rawBody = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      parseJson(request, request.rawBody.toString('utf8'), done);
    };
    // A body cut short (the client went away): a request we cannot read, as Fastify's own parser answers it.
    const onError = (error: Error & { statusCode?: number }): void => stop(Object.assign(error, { statusCode: (error.statusCode ?? 0) >= 400 ? error.statusCode : 400 }));
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}
