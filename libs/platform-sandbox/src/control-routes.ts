import type { FastifyInstance, FastifyReply } from 'fastify';
import { isPlatform, Platform } from '@app/contracts';
import type { FaultRequest } from './faults';
import type { SandboxMediaHost } from './media-host';
import { SandboxControl, SandboxControlError } from './sandbox-control';

/**
 * The JSON control API under /_sandbox:
 *   GET    /_sandbox/published?platform=&account=&kind=   items remembered
 *   GET    /_sandbox/requests?platform=&account=&operation=   {count}
 *   POST   /_sandbox/comments {platform, parentId, text, author?}   a comment from "someone else"
 *   GET    /_sandbox/comments/:platform/:id   {item, hidden, deleted}: what hiding or deleting did to it
 *   GET    /_sandbox/faults ; POST /_sandbox/faults {platform, account?, operation?, times?, fault}
 *   DELETE /_sandbox/faults ; DELETE /_sandbox/faults/:id   (removing a hold lets the requests it holds go on)
 *   POST   /_sandbox/accounts {platform, handle, key?, kind?, ownerKey?, attributes?, scopes?}   an account with tokens
 *          (without scopes: every scope the platform's documented table names, see auth/documented-consent.ts)
 *   POST   /_sandbox/accounts/:key/revoke   every token of that account stops working
 *   POST   /_sandbox/clock {advanceSeconds}   tokens expire as if that much time had passed
 *   POST   /_sandbox/reset   (the media host's counts too)
 *   GET    /_sandbox/media-requests?name=photo.jpg   {count, connections}: requests the media host (sandbox.mediaUrl,
 *          media-host.ts) got for that file name, and TLS connections in all
 */
export function registerControlRoutes(app: FastifyInstance, control: SandboxControl, media: SandboxMediaHost): void {
  app.setErrorHandler((error, _request, reply) => {
    const status = error instanceof SandboxControlError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500);
    reply.code(status).send({ error: { message: error instanceof Error ? error.message : String(error) } });
  });

  app.get('/_sandbox/published', async (request) => {
    const query = request.query as Record<string, string>;
    const kind = query.kind === 'post' || query.kind === 'comment' ? query.kind : undefined;
    return { items: control.published({ platform: platformOf(query.platform), account: query.account, kind }) };
  });

  app.get('/_sandbox/requests', async (request) => {
    const query = request.query as Record<string, string>;
    return { count: control.requestCount({ platform: platformOf(query.platform), account: query.account, operation: query.operation }) };
  });

  app.post('/_sandbox/comments', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const platform = platformOf(body.platform);
    if (!platform || typeof body.parentId !== 'string' || typeof body.text !== 'string') {
      throw new SandboxControlError(400, 'platform, parentId and text are required');
    }
    const item = control.addComment({ platform, parentId: body.parentId, text: body.text, author: typeof body.author === 'string' ? body.author : undefined });
    return reply.code(201).send({ platformCommentId: item.id, item });
  });

  app.get('/_sandbox/comments/:platform/:id', async (request) => {
    const params = request.params as { platform: string; id: string };
    const platform = platformOf(params.platform);
    if (!platform) throw new SandboxControlError(400, `unknown platform ${params.platform}`);
    return control.commentState(platform, params.id);
  });

  app.post('/_sandbox/accounts', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const platform = platformOf(body.platform);
    if (!platform || typeof body.handle !== 'string') throw new SandboxControlError(400, 'platform and handle are required');
    return reply.code(201).send(control.provisionAccount({ ...(body as object), platform, handle: body.handle }));
  });

  app.post('/_sandbox/accounts/:key/revoke', async (request, reply) => {
    control.revokeAccount((request.params as { key: string }).key);
    return reply.code(204).send();
  });

  app.post('/_sandbox/clock', async (request, reply) => {
    const seconds = Number(((request.body ?? {}) as Record<string, unknown>).advanceSeconds);
    if (!Number.isFinite(seconds) || seconds < 0) throw new SandboxControlError(400, 'advanceSeconds must be a non-negative number');
    control.advanceClock(seconds);
    return reply.code(204).send();
  });

  app.get('/_sandbox/faults', async () => ({ faults: control.faults().map((fault) => ({ ...fault, remaining: Number.isFinite(fault.remaining) ? fault.remaining : 'always' })) }));

  app.post('/_sandbox/faults', async (request, reply) => {
    const body = (request.body ?? {}) as FaultRequest;
    if (!platformOf(body.platform) || !body.fault || typeof body.fault.type !== 'string') throw new SandboxControlError(400, 'platform and fault {type, ...} are required');
    return reply.code(201).send({ id: control.addFault(body).id });
  });

  app.delete('/_sandbox/faults', async (_request, reply: FastifyReply) => {
    control.clearFaults();
    return reply.code(204).send();
  });

  app.delete('/_sandbox/faults/:id', async (request, reply) => {
    const removed = control.removeFault((request.params as { id: string }).id);
    return reply.code(removed ? 204 : 404).send();
  });

  app.post('/_sandbox/reset', async (_request, reply) => {
    control.reset();
    media.reset();
    return reply.code(204).send();
  });

  app.get('/_sandbox/media-requests', async (request) => {
    const name = (request.query as Record<string, string>).name;
    if (!name) throw new SandboxControlError(400, 'name (e.g. photo.jpg) is required');
    return { count: media.requests(name), connections: media.connections() };
  });
}

function platformOf(value: unknown): Platform | undefined {
  return isPlatform(value) ? value : undefined;
}
