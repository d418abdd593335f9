import { Global, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { AppConfig } from '@app/config';
import { PG_POOL } from '@app/database';
import { AccountStore } from './account-store';
import { TokenCipher } from './token-cipher';

/** The accounts store for any app that reads or acts as accounts. */
@Global()
@Module({
  providers: [
    { provide: TokenCipher, inject: [AppConfig], useFactory: (config: AppConfig) => new TokenCipher(config.tokenEncryptionKey) },
    { provide: AccountStore, inject: [PG_POOL, TokenCipher], useFactory: (pool: Pool, cipher: TokenCipher) => new AccountStore(pool, cipher) },
  ],
  exports: [AccountStore, TokenCipher],
})
export class AccountsModule {}
