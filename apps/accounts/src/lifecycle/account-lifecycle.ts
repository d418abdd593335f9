import { Inject, Injectable } from '@nestjs/common';
import { accountStreamId, AccountEventData, AccountEventType, DomainError } from '@app/contracts';
import { Account, AccountStore } from '@app/accounts';
import { EVENT_STORE, EventStore, toNewEvents, WrongExpectedRevisionError } from '@app/event-store';
import { currentRequestId } from '@app/observability';
import type { SignedInAccount } from '@app/platforms';

/**
 * The one place an account's health changes, and is announced: each change appends its
 * event on `account-<id>` (AccountConnected, AccountReauthRequired, AccountDisconnected;
 * the relay puts them on social.v1.accounts.*) at the revision the accounts table says
 * the stream is at, then records the new status and revision in the table. If the
 * process died between the two, the next change finds the stream ahead: the table takes
 * the stream's revision and the change is decided again on what the table now says.
 */
@Injectable()
export class AccountLifecycle {
  constructor(
    private readonly store: AccountStore,
    @Inject(EVENT_STORE) private readonly events: EventStore,
  ) {}

  /** Stores what a sign-in gave (each account once) and announces the ones that are new or back. */
  async connected(workspaceId: string, signedIn: SignedInAccount[]): Promise<Account[]> {
    const accounts: Account[] = [];
    for (const one of signedIn) {
      const saved = await this.store.saveSignedIn(workspaceId, one);
      if (!saved.wasConnected) {
        const { account } = saved;
        const revision = await this.append(account, saved.lifecycleRevision, 'AccountConnected', {
          accountId: account.id,
          workspaceId,
          platform: account.platform,
          handle: account.handle,
          displayName: account.displayName,
          platformAccountId: one.identity.platformAccountId,
          instanceUrl: one.identity.instanceUrl,
          scopes: one.credentials.scopes,
          tokenExpiresAt: one.credentials.expiresAt,
          reconnected: saved.lifecycleRevision >= 0n,
        });
        await this.store.setLifecycleRevision(account.id, revision);
      }
      accounts.push(saved.account);
    }
    return accounts;
  }

  /** The platform refused the account's credential for good. Once per episode: an account already waiting for its user is left as it is. */
  async reauthRequired(accountId: string, reason: string, message: string): Promise<Account | null> {
    return this.change(accountId, (account) => (account.status === 'connected' ? { status: 'needs_reauth', reason } : null), (account) => ({
      type: 'AccountReauthRequired' as const,
      data: { accountId, workspaceId: account.workspaceId, platform: account.platform, handle: account.handle, reason, message },
    }));
  }

  async disconnected(accountId: string, revoked: boolean): Promise<Account | null> {
    return this.change(accountId, (account) => (account.status === 'disconnected' ? null : { status: 'disconnected', reason: 'disconnected_by_workspace' }), (account) => ({
      type: 'AccountDisconnected' as const,
      data: { accountId, workspaceId: account.workspaceId, platform: account.platform, handle: account.handle, revoked },
    }));
  }

  private async change<T extends AccountEventType>(
    accountId: string,
    decide: (account: Account) => { status: Account['status']; reason: string } | null,
    event: (account: Account) => { type: T; data: AccountEventData<T> },
  ): Promise<Account | null> {
    const found = await this.store.withLifecycleRevision(accountId);
    if (!found) return null;
    const { account } = found;
    const next = decide(account);
    if (!next) return account;
    const { type, data } = event(account);
    const revision = await this.append(account, found.lifecycleRevision, type, data);
    return this.store.setStatus(accountId, next.status, next.status === 'connected' ? null : next.reason, revision);
  }

  /** Appends at the expected revision; if the stream is ahead (a change recorded in the store but not in the table), catches the table up and appends after it. */
  private async append<T extends AccountEventType>(account: Account, revision: bigint, type: T, data: AccountEventData<T>): Promise<bigint> {
    const stream = accountStreamId(account.id);
    const newEvents = toNewEvents([{ type, data }], { workspaceId: account.workspaceId, version: 1, requestId: currentRequestId() });
    try {
      return (await this.events.append(stream, newEvents, revision < 0n ? 'no_stream' : revision)).revision;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || error.actual === 'no_stream') throw error;
      await this.store.setLifecycleRevision(account.id, error.actual);
      return (await this.events.append(stream, newEvents, error.actual)).revision;
    }
  }
}

/** The account a workspace may act on, or not_found (another workspace's account is not found either). */
export function ownedBy(account: Account | null, workspaceId: string): Account {
  if (!account || account.workspaceId !== workspaceId) throw new DomainError('not_found', 'no such account in this workspace');
  return account;
}
