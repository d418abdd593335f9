import { Global, Module } from '@nestjs/common';
import { Pool } from 'pg';
import { PG_POOL } from '@app/database';
import { WorkspaceStore } from './workspace-store';

@Global()
@Module({
  providers: [{ provide: WorkspaceStore, inject: [PG_POOL], useFactory: (pool: Pool) => new WorkspaceStore(pool) }],
  exports: [WorkspaceStore],
})
export class WorkspacesModule {}
