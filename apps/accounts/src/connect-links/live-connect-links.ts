import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError } from '@app/contracts';
import { connectLinkRefusal } from './connect-link-refusal';
import { ConnectLink, ConnectLinkStore } from './connect-link-store';
import { ConnectLinkToken } from './connect-link-token';

/** The links the page may act for: a token this service signed, naming a link neither revoked nor expired. */
@Injectable()
export class LiveConnectLinks {
  constructor(
    private readonly config: AppConfig,
    private readonly store: ConnectLinkStore,
    private readonly tokens: ConnectLinkToken,
  ) {}

  async resolve(token: string): Promise<ConnectLink> {
    const id = this.tokens.verify(token);
    const link = id ? await this.store.get(id) : null;
    const refusal = connectLinkRefusal(link, this.config.now());
    if (refusal) throw refusal;
    return link!;
  }

  /** The page's own url for a token: on the gateway that serves the sign-in callback (OAUTH_CALLBACK_URL). */
  pageUrl(token: string): string {
    return `${connectPageBase(this.config)}/connect/${token}`;
  }
}

/** Where the gateway is reached from outside: OAUTH_CALLBACK_URL without its path (the page and the callback are both the gateway's). */
export function connectPageBase(config: AppConfig): string {
  if (!config.oauthCallbackUrl) throw new DomainError('platform_not_configured', 'connect links need OAUTH_CALLBACK_URL (the gateway\'s public url of the sign-in callback)');
  return config.oauthCallbackUrl.replace(/\/api\/v1\/accounts\/connect\/callback\/?$/, '').replace(/\/+$/, '');
}
