import { Logger } from '@nestjs/common';
import type { PublishError } from '@app/contracts';
import { AccountSecrets, AccountStore, renewAheadMs } from '@app/accounts';
import { SameMomentReads } from '@app/database';
import { ConnectorAccount, CredentialRefused, isCredentialError, PlatformAuthRegistry, PlatformCallFailed, PlatformError, StoredCredentials } from '@app/platforms';
import type { OAuthApps } from './oauth-apps';

/** Why an account cannot act now: a per-account failure for the caller to record (no platform call was made). */
export interface AccountUnavailable {
  unavailable: PublishError;
}

/** Tells the accounts service that an account needs the user to sign in again (it records and announces it). */
export interface ReauthReporter {
  requireReauth(accountId: string, reason: string, message: string): Promise<void>;
}

export type RenewResult = { renewed: true; secrets: AccountSecrets } | { renewed: false; refused: { code: string; message: string } | null };

/** Credentials that renew themselves: a refresh token, a re-extendable long-lived token, an atproto session. */
function renewable(credentials: StoredCredentials): boolean {
  if (credentials.kind === 'oauth2_refresh' || credentials.kind === 'atproto_session') return credentials.refreshToken !== null;
  return credentials.kind === 'long_lived';
}

export const accountErrors = {
  reauthRequired: (why: string): PublishError => ({
    code: 'reauth_required',
    message: `the account needs to be connected again (${why}); nothing was sent to the platform`,
    retryable: false,
  }),
  disconnected: (): PublishError => ({
    code: 'account_disconnected',
    message: 'the account was disconnected (its credentials are gone); connect it again and retry',
    retryable: false,
  }),
};

/**
 * Acts as an account with credentials that stay alive:
 * - before a call, a token that ends within `refreshAheadMs` is renewed;
 * - a call refused for its token (access_token_expired / _invalid) renews once and is made
 *   once more (a refused call created nothing, so repeating it is safe);
 * - renewals are single-flight across replicas (the store's per-account lock; whoever
 *   comes second finds the token already renewed and uses it);
 * - a renewal the platform refuses for good makes the account needs_reauth (reported to
 *   the accounts service); a transient failure (5xx, 429, timeout) changes nothing.
 * An account that needs re-authorisation or was disconnected is never called: the caller
 * gets `reauth_required` / `account_disconnected`.
 */
export class AccountCredentials {
  private readonly logger = new Logger('AccountCredentials');
  /** The accounts one moment acts as (the ten of a publication start together), read in one statement. */
  private readonly secrets: SameMomentReads<string, AccountSecrets>;

  constructor(
    private readonly store: AccountStore,
    private readonly auth: PlatformAuthRegistry,
    private readonly apps: OAuthApps,
    private readonly reauth: ReauthReporter,
    private readonly options: { refreshAheadMs: number; now: () => Date },
  ) {
    this.secrets = new SameMomentReads((accountIds) => store.secretsOf(accountIds));
  }

  /** The account ready to act as, renewed first when its token is about to end. */
  async acting(accountId: string): Promise<ConnectorAccount | AccountUnavailable> {
    let secrets = (await this.secrets.get(accountId)) ?? null;
    const blocked = this.blocked(secrets);
    if (blocked) return blocked;
    if (this.endsSoon(secrets!.credentials) && renewable(secrets!.credentials)) {
      const result = await this.renew(accountId, null);
      if (result.renewed) secrets = result.secrets;
      else if (result.refused) return { unavailable: accountErrors.reauthRequired(result.refused.code) };
    }
    return toConnectorAccount(secrets!);
  }

  /**
   * Runs a platform call as the account. A call refused for its token (an outcome whose
   * error, or a PlatformCallFailed whose error, is a credential error) is made once more
   * after a renewal; if the credential cannot be renewed, the account needs re-authorisation.
   */
  async run<T>(accountId: string, call: (account: ConnectorAccount) => Promise<T>): Promise<T | AccountUnavailable> {
    return this.runAs(await this.acting(accountId), call);
  }

  /** run, as an account made ready before (acting): its readiness was prepared while the caller did something else. */
  async runAs<T>(account: ConnectorAccount | AccountUnavailable, call: (account: ConnectorAccount) => Promise<T>): Promise<T | AccountUnavailable> {
    if (isUnavailable(account)) return account;
    const first = await attempt(() => call(account));
    if (!first.refused) return first.unwrap();
    const result = await this.renew(account.accountId, account.credentials.accessToken);
    if (result.renewed) return call(toConnectorAccount(result.secrets));
    if (result.refused) return { unavailable: accountErrors.reauthRequired(result.refused.code) };
    return first.unwrap();
  }

  /**
   * Renews the account's credential under its lock. `staleAccessToken`: the token a platform
   * just refused (renew unless someone already did); null: renew if it ends soon.
   */
  async renew(accountId: string, staleAccessToken: string | null): Promise<RenewResult> {
    const result = await this.store.withLockedSecrets(accountId, async (secrets, client): Promise<RenewResult> => {
      if (!secrets || secrets.account.status !== 'connected') return { renewed: false, refused: null };
      const alreadyRenewed = staleAccessToken !== null ? secrets.credentials.accessToken !== staleAccessToken : !this.endsSoon(secrets.credentials);
      if (alreadyRenewed) return { renewed: true, secrets };
      if (!renewable(secrets.credentials)) {
        return { renewed: false, refused: { code: 'access_token_invalid', message: 'the platform refused the token and it cannot be renewed' } };
      }
      const { platform, instanceUrl } = secrets.account;
      try {
        const app = await this.apps.appFor(platform, instanceUrl);
        const renewed = await this.auth.get(platform).refresh(app, secrets.credentials, secrets.identity);
        const credentials = await this.store.saveRenewed(client, secrets, renewed);
        return { renewed: true, secrets: { ...secrets, credentials } };
      } catch (error) {
        if (error instanceof CredentialRefused) return { renewed: false, refused: { code: error.code, message: error.message } };
        if (error instanceof PlatformCallFailed) {
          this.logger.warn(`renewing account ${accountId} failed (${error.error.code}); the account is left as it is`);
          return { renewed: false, refused: null };
        }
        throw error;
      }
    });
    if (!result.renewed && result.refused) await this.reauth.requireReauth(accountId, result.refused.code, result.refused.message);
    return result;
  }

  private endsSoon(credentials: StoredCredentials): boolean {
    const ahead = renewAheadMs(credentials.kind, this.options.refreshAheadMs);
    return credentials.expiresAt !== null && Date.parse(credentials.expiresAt) - this.options.now().getTime() < ahead;
  }

  private blocked(secrets: AccountSecrets | null): AccountUnavailable | null {
    if (!secrets) return { unavailable: accountErrors.disconnected() };
    if (secrets.account.status === 'disconnected') return { unavailable: accountErrors.disconnected() };
    if (secrets.account.status === 'needs_reauth') return { unavailable: accountErrors.reauthRequired(secrets.account.statusReason ?? 'the platform refused its credential') };
    return null;
  }
}

export function isUnavailable(value: unknown): value is AccountUnavailable {
  return typeof value === 'object' && value !== null && 'unavailable' in value;
}

export function toConnectorAccount(secrets: AccountSecrets): ConnectorAccount {
  return { accountId: secrets.account.id, platform: secrets.account.platform, identity: secrets.identity, credentials: { accessToken: secrets.credentials.accessToken } };
}

/** One call, with a token refusal told apart from anything else (an outcome or a throw). */
async function attempt<T>(call: () => Promise<T>): Promise<{ refused: boolean; unwrap: () => T }> {
  try {
    const value = await call();
    const error = (value as { status?: string; error?: PlatformError } | null)?.error;
    const refused = (value as { status?: string })?.status === 'failed' && error !== undefined && isCredentialError(error);
    return { refused, unwrap: () => value };
  } catch (thrown) {
    const refused = thrown instanceof PlatformCallFailed && isCredentialError(thrown.error);
    return {
      refused,
      unwrap: () => {
        throw thrown;
      },
    };
  }
}
