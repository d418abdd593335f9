import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NatsConnection, Subscription } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, serveCommands } from './command-bus';

/**
 * An app's command endpoint: answers its commands on NATS in one queue group
 * shared by every replica, from start-up until shutdown. Subclasses name the
 * queue and map each command to its handler.
 */
export abstract class CommandsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(this.constructor.name);
  private subscriptions: Subscription[] = [];

  protected constructor(
    private readonly nc: NatsConnection,
    private readonly subjects: Subjects,
    private readonly queue: string,
  ) {}

  protected abstract handlers(): CommandHandlers;

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions = serveCommands(this.nc, this.subjects, this.queue, this.handlers(), (error, name) =>
      this.logger.error(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`),
    );
    // The subscriptions are registered with the server before the app reports ready.
    await this.nc.flush();
  }

  onApplicationShutdown(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
  }
}
