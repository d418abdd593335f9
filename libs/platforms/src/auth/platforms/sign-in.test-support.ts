import type { Platform } from '@app/contracts';
import { RunningPlatformSandbox, startPlatformSandbox } from '@app/platform-sandbox';
import type { ConnectorAccount } from '../../connector';
import { sandboxEndpoints } from '../../endpoints';
import { PlatformCallFailed } from '../../http/platform-http';
import { DEFAULT_RETRY_POLICY, RetryPolicy } from '../../http/retry-policy';
import { ConnectorRegistry } from '../../registry';
import { PlatformAuthRegistry } from '../auth-registry';
import { pkcePair } from '../oauth2';
import type { OAuthApp, PlatformAuth, SignedInAccount } from '../platform-auth';

/** For sign-in tests against the platform sandbox: the sandbox and its clients, and what the accounts service and the user's browser do. */

/** Retries without waiting, and short request timeouts. */
export const TEST_RETRY: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 2, requestTimeoutMs: 2_000, sleep: async () => undefined };

/** A running sandbox, and the sign-in clients and connectors pointed at it. */
export interface SignInSandbox {
  sandbox: RunningPlatformSandbox;
  /** Every platform's sign-in client. */
  registry: PlatformAuthRegistry;
  /** The sign-in client of the platform under test. */
  auth: PlatformAuth;
  connectors: ConnectorRegistry;
}

/** A fresh sandbox for each test (its clock moves): the object answers the current test's. */
export function sandboxPerTest(platform: Platform): SignInSandbox {
  return sandboxBetween(platform, beforeEach, afterEach);
}

/** One sandbox for all the tests of a file. */
export function sandboxPerFile(platform: Platform): SignInSandbox {
  return sandboxBetween(platform, beforeAll, afterAll);
}

function sandboxBetween(platform: Platform, start: jest.Lifecycle, stop: jest.Lifecycle): SignInSandbox {
  const current = {} as SignInSandbox;
  start(async () => {
    const sandbox = await startPlatformSandbox();
    const endpoints = sandboxEndpoints(sandbox.url);
    const registry = new PlatformAuthRegistry({ endpoints, retry: TEST_RETRY });
    Object.assign(current, { sandbox, registry, auth: registry.get(platform), connectors: new ConnectorRegistry({ endpoints, retry: TEST_RETRY, media: { allowedHosts: [new URL(sandbox.mediaUrl).host] } }) });
  });
  stop(async () => {
    await current.sandbox.close();
  });
  return current;
}

/** The consent step as the browser goes through it, signed in as the sandbox identity `userKey` (or declining): where the platform sends it back. */
export async function consent(authorizationUrl: string, userKey: string, options: { deny?: boolean } = {}): Promise<URL> {
  const url = new URL(authorizationUrl);
  url.searchParams.set('sandbox_user', userKey);
  if (options.deny) url.searchParams.set('sandbox_deny', '1');
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status !== 302) throw new Error(`the consent step answered ${response.status}: ${await response.text()}`);
  return new URL(response.headers.get('location') as string);
}

export interface ConsentOptions {
  /** The sign-in client whose consent url to follow: the platform's by default. */
  client?: PlatformAuth;
  /** Changes the consent url before the browser follows it. */
  adjust?: (url: URL) => void;
}

/**
 * A sign-in as the accounts service goes through it for `app`: with a PKCE pair, or (`pkce:
 * false`, platforms whose flow takes none) with placeholders they do not send.
 */
export function oauthFlow(env: Pick<SignInSandbox, 'auth'>, app: OAuthApp, options: { pkce: boolean }) {
  let sequence = 0;

  /** The consent step for `userKey`, checked to bring the state back: the code from the callback and its PKCE verifier. */
  async function authorize(userKey: string, { client = env.auth, adjust }: ConsentOptions = {}): Promise<{ code: string; verifier: string }> {
    const { verifier, challenge } = options.pkce ? pkcePair() : { verifier: 'unused', challenge: 'unused' };
    const state = `state-${++sequence}`;
    const url = new URL(client.authorizationUrl({ app, state, codeChallenge: challenge, instanceUrl: null }));
    adjust?.(url);
    const back = await consent(url.toString(), userKey);
    expect(back.searchParams.get('state')).toBe(state);
    return { code: back.searchParams.get('code') as string, verifier };
  }

  /** Consent, code exchange and identification: every account the sign-in gives. */
  async function signInAccounts(userKey: string, client: PlatformAuth = env.auth): Promise<SignedInAccount[]> {
    const { code, verifier } = await authorize(userKey, { client });
    const tokens = await client.exchangeCode({ app, code, codeVerifier: verifier, instanceUrl: null });
    return client.identify(tokens, null);
  }

  /** The (first) account a sign-in gives. */
  async function signIn(userKey: string, client: PlatformAuth = env.auth): Promise<SignedInAccount> {
    const [account] = await signInAccounts(userKey, client);
    return account;
  }

  /**
   * The token endpoint's refusals of a code exchange, as RFC 6749 §5.2 words them: a spent code,
   * another redirect uri and another client (`otherClientId`) are invalid_grant, refused for
   * good; a wrong secret is invalid_client, a PlatformCallFailed not retried. Answers that
   * failure, for the platform's own message.
   */
  async function expectCodeExchangeRefusals(userKey: string, otherClientId: string): Promise<PlatformCallFailed> {
    const exchange = (code: string, changed: Partial<OAuthApp> = {}) => env.auth.exchangeCode({ app: { ...app, ...changed }, code, codeVerifier: 'unused', instanceUrl: null });
    const { code: first } = await authorize(userKey);
    await exchange(first);
    await expect(exchange(first)).rejects.toEqual(refusal('invalid_grant'));

    const { code: second } = await authorize(userKey);
    await expect(exchange(second, { redirectUri: 'https://elsewhere.example/cb' })).rejects.toEqual(refusal('invalid_grant'));
    await expect(exchange(second, { clientId: otherClientId })).rejects.toEqual(refusal('invalid_grant'));
    const wrongSecret = await exchange(second, { clientSecret: 'wrong' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(wrongSecret).toBeInstanceOf(PlatformCallFailed);
    expect(wrongSecret).toMatchObject({ error: { code: 'invalid_client', retryable: false } });
    return wrongSecret as PlatformCallFailed;
  }

  return { authorize, signIn, signInAccounts, expectCodeExchangeRefusals };
}

/** What a sign-in call rejects with when the platform refuses the credential for good. */
export const refusal = (code: string) => expect.objectContaining({ name: 'CredentialRefused', code });

/** A signed-in account as a connector uses it. */
export function connectorAccount(platform: Platform, account: SignedInAccount): ConnectorAccount {
  return { accountId: account.identity.platformAccountId, platform, identity: account.identity, credentials: { accessToken: account.credentials.accessToken } };
}
