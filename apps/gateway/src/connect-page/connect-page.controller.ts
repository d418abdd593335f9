import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProduces, ApiSeeOtherResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccountView, DomainError, ERROR_CODES, Platform } from '@app/contracts';
import { CommandClient } from '@app/messaging';
import { Public } from '@app/observability';
import { ApiErrors } from '../openapi/error-responses';
import { OPERATION_ERRORS } from '../openapi/operation-errors';
import { bodyValidation, queryValidation } from '../validation/validation-pipes';
import { connectPageCss } from './connect-page.css';
import { AppPasswordForm, ReturnQuery, StartSignInForm } from './connect-page.dto';
import { connectPage, PageDepth, PageNotice, platformName, unusablePage } from './connect-page.view';
import { clearSignInCookie, readSignInCookie, setSignInCookie } from './sign-in-cookie';

/**
 * The hosted connect page (issue 25): plain server-rendered HTML and forms, no script. It
 * reaches the domain only through the accounts commands the REST API sends; the link's signed
 * token in the url stands in for the API key, and nothing of an API key, a platform token or
 * the client's redirectUri is ever written into the page. A browser (Accept: text/html) gets a
 * page for every outcome; any other client gets the API's error body, as every route answers.
 */
@Public()
@ApiTags('connect page')
@Controller()
export class ConnectPageController {
  constructor(private readonly commands: CommandClient) {}

  @Get('connect-page.css')
  @ApiExcludeEndpoint()
  async css(@Query('accent') accent: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    await reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(connectPageCss(accent));
  }

  /** The page; also where each sign-in comes back (connection_id to complete with the cookie's verifier, or error). */
  @Get('connect/:token')
  @ApiProduces('text/html')
  @ApiErrors(...OPERATION_ERRORS.connectPage)
  @ApiOperation({ summary: "The hosted connect page of a connect link (HTML for the end user's browser; no API key: the link is signed); also where each sign-in it starts comes back" })
  @ApiOkResponse({ description: 'the page' })
  async show(@Param('token') token: string, @Query(queryValidation) query: ReturnQuery, @Headers('cookie') cookies: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    let notice: PageNotice | null = null;
    if (query.connection_id || query.error) {
      const pending = readSignInCookie(cookies);
      const path = `/connect/${token}`;
      // Removed whatever happens next (a deletion without Secure is also honoured from an https page).
      reply.header('set-cookie', clearSignInCookie(path, reply.request.protocol === 'https'));
      const name = pending ? platformName(pending.platform) : 'The platform';
      if (query.error) {
        notice = { kind: 'error', text: `${name}: not connected. ${signInErrorText(query.error, query.error_description)}` };
      } else if (!pending) {
        notice = { kind: 'error', text: 'Not connected: this sign-in was started in another browser or took too long. Start it again.' };
      } else {
        try {
          const { accounts } = await this.commands.request('accounts.connect-link-complete', { token, connectionId: query.connection_id!, verifier: pending.verifier });
          notice = connectedNotice(pending.platform, accounts);
        } catch (error) {
          if (isLinkRefusal(error)) return this.unusable(reply, error);
          notice = { kind: 'error', text: `${name}: not connected. ${refusalText(error)}` };
        }
      }
    }
    return this.render(reply, token, notice);
  }

  /** "Sign in with …": keeps the verifier in the page's cookie and sends the browser to the platform's consent. */
  @Post('connect/:token/start')
  @ApiErrors(...OPERATION_ERRORS.startConnectPageSignIn)
  @ApiOperation({ summary: "The connect page's sign-in form (application/x-www-form-urlencoded: platform, instanceUrl): keeps the verifier in the page's cookie, 303 to the platform's consent" })
  @ApiSeeOtherResponse({ description: "to the platform's consent page" })
  async start(@Param('token') token: string, @Body(bodyValidation) form: StartSignInForm, @Res() reply: FastifyReply): Promise<void> {
    try {
      const started = await this.commands.request('accounts.connect-link-start', { token, platform: form.platform, instanceUrl: instanceUrlOf(form.instanceUrl) });
      return await reply
        .code(303)
        .header('set-cookie', setSignInCookie({ platform: form.platform, verifier: started.verifier }, started.returnUrl))
        .header('location', started.authorizationUrl)
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .send();
    } catch (error) {
      if (isLinkRefusal(error)) return this.unusable(reply, error);
      if (!wantsHtml(reply)) throw error;
      return this.render(reply, token, { kind: 'error', text: `${platformName(form.platform)}: could not start. ${refusalText(error)}` }, statusOf(error));
    }
  }

  /** Bluesky: handle and app password, connected at once. */
  @Post('connect/:token/app-password')
  @ApiProduces('text/html')
  @ApiErrors(...OPERATION_ERRORS.connectPageAppPassword)
  @ApiOperation({ summary: "The connect page's Bluesky form (application/x-www-form-urlencoded: handle, appPassword); answers the page" })
  @ApiOkResponse({ description: 'the page, with what was connected' })
  async appPassword(@Param('token') token: string, @Body(bodyValidation) form: AppPasswordForm, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { accounts } = await this.commands.request('accounts.connect-link-app-password', { token, handle: form.handle, appPassword: form.appPassword });
      return await this.render(reply, token, connectedNotice('bluesky', accounts));
    } catch (error) {
      if (isLinkRefusal(error)) return this.unusable(reply, error);
      if (!wantsHtml(reply)) throw error;
      return this.render(reply, token, { kind: 'error', text: `Bluesky: not connected. ${refusalText(error)}` }, statusOf(error));
    }
  }

  /** "Done": back to the client's redirectUri with the account ids (or error=access_denied). */
  @Post('connect/:token/done')
  @ApiErrors(...OPERATION_ERRORS.finishConnectPage)
  @ApiOperation({ summary: "The connect page's Done: 303 to the link's redirectUri with account_ids (or error=access_denied)" })
  @ApiSeeOtherResponse({ description: "to the link's redirectUri" })
  async done(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    try {
      const { redirectTo } = await this.commands.request('accounts.connect-link-finish', { token });
      return await reply.code(303).header('location', redirectTo).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send();
    } catch (error) {
      if (isLinkRefusal(error)) return this.unusable(reply, error);
      throw error;
    }
  }

  private async render(reply: FastifyReply, token: string, notice: PageNotice | null, status = 200): Promise<void> {
    try {
      const page = await this.commands.request('accounts.connect-link-open', { token });
      return await html(reply, status, connectPage(token, page, notice, depthOf(reply)));
    } catch (error) {
      if (isLinkRefusal(error)) return this.unusable(reply, error);
      throw error;
    }
  }

  /** A link that cannot be used: a page saying so for a browser, the API's error body for any other client. */
  private unusable(reply: FastifyReply, error: DomainError): Promise<void> {
    if (!wantsHtml(reply)) throw error;
    return html(reply, ERROR_CODES[error.code].status, unusablePage(error.code, depthOf(reply)));
  }
}

/**
 * No script at all, styles and images only from here (the logo: any https host), no frames,
 * no base. form-action is left open on purpose: the sign-in form's answer redirects to the
 * platform's consent page (a Mastodon instance the user names), and browsers apply form-action
 * to that redirect.
 */
export const CONNECT_PAGE_CSP = "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' https:; base-uri 'none'; frame-ancestors 'none'";

async function html(reply: FastifyReply, status: number, body: string): Promise<void> {
  await reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', CONNECT_PAGE_CSP)
    .header('cache-control', 'no-store')
    // The url holds the link's token: never sent on to the logo's host or a platform.
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .send(body);
}

/** A form's answer (/connect/<token>/<form>) is one level below the page (/connect/<token>). */
function depthOf(reply: FastifyReply): PageDepth {
  return reply.request.method === 'GET' ? '' : '../';
}

/** A browser navigating (its Accept names text/html), rather than a program. */
function wantsHtml(reply: FastifyReply): boolean {
  return (reply.request.headers.accept ?? '').includes('text/html');
}

function isLinkRefusal(error: unknown): error is DomainError {
  return error instanceof DomainError && (error.code === 'connect_link_invalid' || error.code === 'connect_link_expired' || error.code === 'connect_link_revoked');
}

function statusOf(error: unknown): number {
  return error instanceof DomainError ? ERROR_CODES[error.code].status : 500;
}

/** A bare host ("mastodon.social") is what people type: https is the only scheme an instance has. */
function instanceUrlOf(value: string | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

function connectedNotice(platform: Platform, accounts: AccountView[]): PageNotice {
  return { kind: 'success', text: `${platformName(platform)}: connected ${accounts.map((account) => account.account).join(', ')}.` };
}

/** The platform's error on the way back (OAuth 2.0 error codes, RFC 6749 §4.1.2.1, and the callback's own). */
function signInErrorText(code: string, description: string | undefined): string {
  const known: Record<string, string> = {
    access_denied: 'You did not allow access.',
    invalid_credentials: 'The platform did not accept the sign-in.',
    platform_unavailable: 'The platform did not answer. Try again in a moment.',
    platform_not_configured: 'This platform is not set up on this service.',
  };
  return known[code] ?? (description ? `The platform said: ${description}` : `The platform answered ${code}.`);
}

function refusalText(error: unknown): string {
  if (!(error instanceof DomainError)) throw error;
  const known: Partial<Record<string, string>> = {
    invalid_credentials: 'The platform did not accept these credentials.',
    invalid_instance_url: 'That server address is not valid.',
    platform_unavailable: 'The platform did not answer. Try again in a moment.',
    platform_not_configured: 'This platform is not set up on this service.',
    platform_not_offered: 'This link does not offer this platform.',
    connection_expired: 'The sign-in took too long. Start it again.',
    connection_already_completed: 'This sign-in was already completed.',
    connection_verifier_invalid: 'This sign-in was started in another browser. Start it again here.',
    not_found: 'This sign-in is unknown. Start it again.',
  };
  return known[error.code] ?? error.message;
}
