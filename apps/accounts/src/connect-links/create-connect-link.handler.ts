import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ConnectLinkCreated, CreateConnectLinkCommand } from '@app/contracts';
import { WorkspaceStore } from '@app/workspaces';
import { RedirectUriPolicy } from '../connect/redirect-uri-policy';
import { ConnectLinkStore } from './connect-link-store';
import { ConnectLinkToken } from './connect-link-token';
import { connectPageBase, LiveConnectLinks } from './live-connect-links';

/**
 * POST /api/v1/connect-links: a link the workspace hands its end user. Its redirectUri is
 * where the page's "Done" sends the user with account ids, so it is judged as a sign-in's
 * redirectUri is (the same policy, the workspace's origins). Refused: nothing stored.
 */
@Injectable()
export class CreateConnectLinkHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly store: ConnectLinkStore,
    private readonly tokens: ConnectLinkToken,
    private readonly links: LiveConnectLinks,
    private readonly workspaces: WorkspaceStore,
    private readonly redirects: RedirectUriPolicy,
  ) {}

  async handle(command: CreateConnectLinkCommand): Promise<ConnectLinkCreated> {
    this.redirects.check(command.redirectUri, await this.workspaces.redirectOrigins(command.workspaceId));
    connectPageBase(this.config);
    const id = randomUUID();
    const expiresAt = new Date(this.config.now().getTime() + command.expiresInSeconds * 1000);
    const platforms = command.platforms ? [...new Set(command.platforms)] : null;
    await this.store.create({ id, workspaceId: command.workspaceId, redirectUri: command.redirectUri, platforms, brand: command.brand, expiresAt });
    return { id, url: this.links.pageUrl(this.tokens.sign(id)), expiresAt: expiresAt.toISOString() };
  }
}
