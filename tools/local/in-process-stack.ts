import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { HttpAppOptions } from '@app/runtime';
import { createAccountsApp } from '../../apps/accounts/src/accounts.app';
import { createCommentsApp } from '../../apps/comments/src/comments.app';
import { createGatewayApp } from '../../apps/gateway/src/gateway.app';
import { createPostsApp } from '../../apps/posts/src/posts.app';
import { createProjectorApp } from '../../apps/projector/src/projector.app';
import { createPublisherApp } from '../../apps/publisher/src/publisher.app';

export type AppName = 'gateway' | 'posts' | 'projector' | 'publisher' | 'comments' | 'accounts';

export const APP_FACTORIES: Record<AppName, (config: AppConfig, options?: HttpAppOptions) => Promise<NestFastifyApplication>> = {
  gateway: createGatewayApp,
  posts: createPostsApp,
  projector: createProjectorApp,
  publisher: createPublisherApp,
  comments: createCommentsApp,
  accounts: createAccountsApp,
};

/** Start order: the feed followers first, then the command side, then the API. */
export const ALL_APPS: AppName[] = ['projector', 'posts', 'accounts', 'publisher', 'comments', 'gateway'];

/**
 * Runs the apps in one process (npm start, the bench, the tests). Workers are
 * initialised without an HTTP listener; the gateway listens on config.port.
 */
export class InProcessStack {
  readonly apps = new Map<AppName, NestFastifyApplication>();
  gatewayUrl = '';

  constructor(
    private readonly config: AppConfig,
    private readonly options: HttpAppOptions = {},
  ) {}

  async start(names: AppName[] = ALL_APPS): Promise<this> {
    for (const name of names) await this.startApp(name);
    return this;
  }

  async startApp(name: AppName): Promise<NestFastifyApplication> {
    const app = await APP_FACTORIES[name](this.config, this.options);
    if (name === 'gateway') {
      await app.listen(this.config.port, this.config.host);
      this.gatewayUrl = await app.getUrl();
    } else {
      await app.init();
    }
    this.apps.set(name, app);
    return app;
  }

  async stopApp(name: AppName): Promise<void> {
    await this.apps.get(name)?.close();
    this.apps.delete(name);
  }

  async stop(): Promise<void> {
    for (const name of [...this.apps.keys()].reverse()) await this.stopApp(name);
  }
}
