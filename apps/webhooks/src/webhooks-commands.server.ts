import { Inject, Injectable } from '@nestjs/common';
import { NatsConnection } from 'nats';
import { Subjects } from '@app/contracts';
import { CommandHandlers, CommandsServer, NATS_CONNECTION } from '@app/messaging';
import { WebhookEndpointsHandler } from './endpoints/webhook-endpoints.handler';

/** Answers the webhooks commands on NATS, in the `webhooks` queue group shared by every replica. */
@Injectable()
export class WebhooksCommandsServer extends CommandsServer {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    subjects: Subjects,
    private readonly endpoints: WebhookEndpointsHandler,
  ) {
    super(nc, subjects, 'webhooks');
  }

  protected handlers(): CommandHandlers {
    return {
      'webhooks.create': (payload) => this.endpoints.create(payload),
      'webhooks.update': (payload) => this.endpoints.update(payload),
      'webhooks.delete': (payload) => this.endpoints.delete(payload),
      'webhooks.rotate-secret': (payload) => this.endpoints.rotateSecret(payload),
      'webhooks.test': (payload) => this.endpoints.test(payload),
      'webhooks.redeliver': (payload) => this.endpoints.redeliver(payload),
      'webhooks.replay': (payload) => this.endpoints.replay(payload),
    };
  }
}
