import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { AccountStore } from '@app/accounts';
import { AccountCredentials } from '@app/credentials';
import { CredentialRefused, PlatformAuthRegistry, PlatformCallFailed } from '@app/platforms';
import { PeriodicTask } from '@app/runtime';
import { AccountLifecycle } from '../lifecycle/account-lifecycle';

/** Accounts renewed per pass; the rest wait for the next one. */
const BATCH = 100;

/**
 * Keeps credentials alive without waiting for a call to need them: renews every token
 * that ends within tokenRefreshAheadMs (long-lived 60-day tokens a week ahead, see
 * renewAheadMs), and reads the identity of accounts stored before identities
 * were kept (with their stored token) so they become connected again, and drops the
 * tokens a sign-in's callback held for a connection left uncompleted past its time. Any number of
 * replicas may run it: renewals are single-flight per account.
 */
@Injectable()
export class CredentialsRefresher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CredentialsRefresher');
  private readonly task: PeriodicTask;

  constructor(
    private readonly config: AppConfig,
    private readonly store: AccountStore,
    private readonly credentials: AccountCredentials,
    private readonly auth: PlatformAuthRegistry,
    private readonly lifecycle: AccountLifecycle,
  ) {
    this.task = new PeriodicTask('credentials refresher', config.accountsRefreshIntervalMs, () => this.pass(), this.logger);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.task.stop();
  }

  /**
   * One pass: renew what ends soon, identify what has no identity, forget the tokens of sign-ins nobody
   * completed. Answers how many accounts it renewed. Each account is on its own: whatever one throws (a platform's odd answer, a missing
   * app, a bug) is logged and the pass goes on to the next, which is renewed as if nothing happened.
   */
  async pass(): Promise<number> {
    await this.store.dropExpiredConnections(this.config.now());
    const ending = await this.store.dueForRenewal(this.config.now(), this.config.tokenRefreshAheadMs, BATCH);
    let renewed = 0;
    for (const accountId of ending) {
      if (await this.isolated(accountId, 'renewing', async () => (await this.credentials.renew(accountId, null)).renewed)) renewed++;
    }
    for (const accountId of await this.store.withoutIdentity(BATCH)) await this.isolated(accountId, 'identifying', () => this.identify(accountId));
    return renewed;
  }

  /** One account's step; a failure is logged (its kind and message, never a credential) and answers undefined. */
  private async isolated<T>(accountId: string, step: string, run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run();
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.logger.error(`${step} account ${accountId} failed (${reason}); the pass goes on with the other accounts`);
      return undefined;
    }
  }

  private async identify(accountId: string): Promise<void> {
    const secrets = await this.store.secrets(accountId);
    if (!secrets) return;
    try {
      const found = await this.auth.get(secrets.account.platform).identify(secrets.credentials, secrets.account.instanceUrl);
      const same = found.find((one) => one.platform === secrets.account.platform && one.identity.handle.toLowerCase() === secrets.account.handle.toLowerCase()) ?? (found.length === 1 ? found[0] : null);
      // The token is someone else's: only its user can sort it out (and it is not tried again).
      if (!same) return void (await this.store.giveUpIdentifying(accountId, 'identity_mismatch'));
      await this.lifecycle.connected(secrets.account.workspaceId, [same]);
    } catch (error) {
      // A refused token is not tried again; a transient failure is, on the next pass.
      if (error instanceof CredentialRefused || (error instanceof PlatformCallFailed && !error.error.retryable)) await this.store.giveUpIdentifying(accountId, 'credentials_refused');
      else if (!(error instanceof PlatformCallFailed)) throw error;
    }
  }
}
