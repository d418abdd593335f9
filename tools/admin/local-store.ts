import { Logger, LoggerService } from '@nestjs/common';
import { AccountStore, TokenCipher } from '@app/accounts';
import { AppConfig } from '@app/config';
import { createPool, migrate } from '@app/database';
import { createEventStore } from '@app/event-store';
import { WorkspaceStore } from '@app/workspaces';
import { localDatabase, readLocalState } from '../local/local-environment';
import { StoreSession } from './store-session';

/**
 * The database `npm start` uses (or DATABASE_URL), migrated, with the local token
 * encryption key (or TOKEN_ENCRYPTION_KEY). The rest of the configuration is read from
 * the environment as the services read it: PLATFORM_SANDBOX_URL / PLATFORM_BASE_URL_<P>
 * point connecting at a sandbox, <PLATFORM>_CLIENT_ID/SECRET are the apps that revoke
 * tokens on disconnect, EVENT_STORE chooses where lifecycle events go.
 */
export async function openLocalStore(log: (line: string) => void): Promise<StoreSession> {
  // The handlers log through Nest's Logger, which writes to stdout by default: stdout is the command's JSON.
  Logger.overrideLogger(stderrLogger(log));
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 2);
  let closeEvents = async (): Promise<void> => undefined;
  const close = async () => {
    await closeEvents();
    await pool.end();
    await database.stop();
  };
  try {
    await migrate(database.databaseUrl);
    const key = process.env.TOKEN_ENCRYPTION_KEY ?? readLocalState().tokenEncryptionKey;
    const config = AppConfig.fromEnv({ ...process.env, DATABASE_URL: database.databaseUrl, TOKEN_ENCRYPTION_KEY: key });
    const events = await createEventStore(config, pool);
    closeEvents = () => events.close();
    return {
      workspaces: new WorkspaceStore(pool),
      accounts: new AccountStore(pool, new TokenCipher(config.tokenEncryptionKey)),
      events,
      config,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Nest's warnings and errors (e.g. a token revocation that failed on disconnect) as `warn [context] message` lines through `log`; the rest is dropped. */
function stderrLogger(log: (line: string) => void): LoggerService {
  const write =
    (level: string) =>
    (message: unknown, ...rest: unknown[]): void => {
      const context = typeof rest.at(-1) === 'string' ? `[${String(rest.at(-1))}] ` : '';
      log(`${level} ${context}${message instanceof Error ? message.message : String(message)}`);
    };
  const quiet = (): void => undefined;
  return { log: quiet, debug: quiet, verbose: quiet, warn: write('warn'), error: write('error'), fatal: write('fatal') };
}
