import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The connect page's forms are the one place a body is not JSON: a few short fields. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Parses application/x-www-form-urlencoded for the connect page's routes (/connect/…) only;
 * every other route keeps answering 415 unsupported_media_type to a form, as it always did.
 */
export function acceptConnectPageForms(app: NestFastifyApplication): void {
  app.getHttpAdapter().getInstance().addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (request, body, done) => {
    if (!request.url.startsWith('/connect/')) {
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
      return;
    }
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}
