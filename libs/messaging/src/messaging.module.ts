import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { AppConfig } from '@app/config';
import { Subjects } from '@app/contracts';
import { CommandClient } from './command-bus';
import { connectNats, drainWithin } from './nats-connection';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');

/** The process's NATS connection, its subject names and the command client; drained on shutdown (closed if the server is gone). */
@Global()
@Module({
  providers: [
    { provide: NATS_CONNECTION, inject: [AppConfig], useFactory: (config: AppConfig) => connectNats(config.natsUrl, 'social-publishing') },
    { provide: Subjects, inject: [AppConfig], useFactory: (config: AppConfig) => new Subjects(config.natsNamespace) },
    {
      provide: CommandClient,
      inject: [NATS_CONNECTION, Subjects, AppConfig],
      useFactory: (nc: NatsConnection, subjects: Subjects, config: AppConfig) => new CommandClient(nc, subjects, config.commandTimeoutMs),
    },
  ],
  exports: [NATS_CONNECTION, Subjects, CommandClient],
})
export class MessagingModule implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationShutdown(): Promise<void> {
    await drainWithin(this.nc);
  }
}
