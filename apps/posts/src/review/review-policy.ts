import { Injectable } from '@nestjs/common';
import { CommandActor } from '@app/contracts';
import { WorkspaceStore } from '@app/workspaces';
import { Review } from '../domain/post.commands';

/**
 * Gathers what the Post decider needs to decide whether a write is held for review: the
 * workspace's approvalRequired (read here, at the posts service, on every command: a change of
 * the setting holds the very next post) and the sender's approve scope (the gateway's actor).
 * The decision itself is the decider's (decide-review.ts).
 */
@Injectable()
export class ReviewPolicy {
  constructor(private readonly workspaces: WorkspaceStore) {}

  async reviewFor(workspaceId: string, actor: CommandActor | undefined): Promise<Review | undefined> {
    if (!actor) return undefined;
    const settings = await this.workspaces.settings(workspaceId);
    return { required: settings?.approvalRequired === true, canApprove: actor.canApprove, by: actor.keyId };
  }
}
