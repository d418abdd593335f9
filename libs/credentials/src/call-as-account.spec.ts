import { DomainError } from '@app/contracts';
import { ConnectorAccount, PlatformCallFailed, PlatformOutcomeUnknown } from '@app/platforms';
import { AccountCredentials, accountErrors } from './account-credentials';
import { callAsAccount } from './call-as-account';

/** What a client waiting on a platform call as an account gets (comments' actions, the boards listing). */
describe('callAsAccount', () => {
  const acting = { accountId: 'acc-1' } as ConnectorAccount;
  /** Credentials whose run answers as given (the renewal rules are AccountCredentials' own, see account-credentials.int-spec.ts). */
  const credentialsThat = (run: (call: (account: ConnectorAccount) => Promise<unknown>) => Promise<unknown>) =>
    ({ run: (_accountId: string, call: (account: ConnectorAccount) => Promise<unknown>) => run(call) }) as unknown as AccountCredentials;
  const refusalOf = async (credentials: AccountCredentials, call: () => Promise<unknown> = async () => 'never') => {
    const error = await callAsAccount(credentials, 'acc-1', call).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  };

  it("answers the call's result, made as the acting account", async () => {
    const seen: ConnectorAccount[] = [];
    const answer = await callAsAccount(credentialsThat((call) => call(acting)), 'acc-1', async (account) => {
      seen.push(account);
      return ['board-1'];
    });
    expect(answer).toEqual(['board-1']);
    expect(seen).toEqual([acting]);
  });

  it('an account that needs signing in again is account_needs_reauth; a disconnected one account_disconnected', async () => {
    const reauth = await refusalOf(credentialsThat(async () => ({ unavailable: accountErrors.reauthRequired('token revoked') })));
    expect(reauth).toMatchObject({ code: 'account_needs_reauth', extra: { details: { accountId: 'acc-1' } } });
    const disconnected = await refusalOf(credentialsThat(async () => ({ unavailable: accountErrors.disconnected() })));
    expect(disconnected).toMatchObject({ code: 'account_disconnected', extra: { details: { accountId: 'acc-1' } } });
  });

  it('a platform refusal is platform_rejected with its error; a sent call with no answer is platform_outcome_unknown', async () => {
    const refusal = { code: 'platform_rejected', message: 'board not found', retryable: false };
    const refused = await refusalOf(credentialsThat((call) => call(acting)), async () => {
      throw new PlatformCallFailed(refusal);
    });
    expect(refused).toMatchObject({ code: 'platform_rejected', extra: { details: refusal } });
    const unknown = await refusalOf(credentialsThat((call) => call(acting)), async () => {
      throw new PlatformOutcomeUnknown('socket hang up');
    });
    expect(unknown.code).toBe('platform_outcome_unknown');
  });

  it('any other failure is passed on as it is', async () => {
    const bug = new TypeError('not a function');
    await expect(
      callAsAccount(credentialsThat((call) => call(acting)), 'acc-1', async () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
  });
});
