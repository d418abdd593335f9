import { Global, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { TokenCipher } from './token-cipher';
import { WorkspaceStore } from './workspace-store';

@Global()
@Module({
  providers: [
    { provide: TokenCipher, inject: [AppConfig], useFactory: (config: AppConfig) => new TokenCipher(config.tokenEncryptionKey) },
    { provide: WorkspaceStore, inject: [PG_POOL, TokenCipher], useFactory: (pool: Pool, cipher: TokenCipher) => new WorkspaceStore(pool, cipher) },
  ],
  exports: [WorkspaceStore, TokenCipher],
})
export class WorkspacesModule {}
