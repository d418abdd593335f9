import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { DomainError, EmptyReply, RevokeConnectLinkCommand } from '@app/contracts';
import { ConnectLinkStore } from './connect-link-store';

/** DELETE /api/v1/connect-links/:id: the link's page refuses everything from now on (accounts already connected stay). */
@Injectable()
export class RevokeConnectLinkHandler {
  constructor(
    private readonly config: AppConfig,
    private readonly store: ConnectLinkStore,
  ) {}

  async handle(command: RevokeConnectLinkCommand): Promise<EmptyReply> {
    if (!(await this.store.revoke(command.workspaceId, command.id, this.config.now()))) throw new DomainError('not_found', 'no connect link with this id in this workspace');
    return {};
  }
}
