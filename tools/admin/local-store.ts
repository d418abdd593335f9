import { createPool, migrate } from '@app/database';
import { TokenCipher, WorkspaceStore } from '@app/workspaces';
import { localDatabase, readLocalState } from '../local/local-environment';
import { StoreSession } from './store-session';

/**
 * The database `npm start` uses (or DATABASE_URL), migrated, with the local
 * token encryption key (or TOKEN_ENCRYPTION_KEY).
 */
export async function openLocalStore(log: (line: string) => void): Promise<StoreSession> {
  const database = await localDatabase(log);
  const pool = createPool(database.databaseUrl, 2);
  const close = async () => {
    await pool.end();
    await database.stop();
  };
  try {
    await migrate(database.databaseUrl);
    const key = process.env.TOKEN_ENCRYPTION_KEY ?? readLocalState().tokenEncryptionKey;
    return { store: new WorkspaceStore(pool, new TokenCipher(Buffer.from(key, 'base64'))), close };
  } catch (error) {
    await close();
    throw error;
  }
}
