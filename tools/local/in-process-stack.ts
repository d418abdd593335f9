import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@app/config';
import { HttpAppOptions } from '@app/runtime';

export type AppName = 'gateway' | 'posts' | 'projector' | 'publisher' | 'comments' | 'accounts' | 'webhooks' | 'analytics';

type AppFactory = (config: AppConfig, options?: HttpAppOptions) => Promise<NestFastifyApplication>;

/**
 * Each app's factory, loaded when the app is first started: a process that runs one app (the
 * benches run one process per app, as production does) loads that app's modules only.
 */
export const APP_FACTORIES: Record<AppName, () => Promise<AppFactory>> = {
  gateway: async () => (await import('../../apps/gateway/src/gateway.app.js')).createGatewayApp,
  posts: async () => (await import('../../apps/posts/src/posts.app.js')).createPostsApp,
  projector: async () => (await import('../../apps/projector/src/projector.app.js')).createProjectorApp,
  publisher: async () => (await import('../../apps/publisher/src/publisher.app.js')).createPublisherApp,
  comments: async () => (await import('../../apps/comments/src/comments.app.js')).createCommentsApp,
  accounts: async () => (await import('../../apps/accounts/src/accounts.app.js')).createAccountsApp,
  webhooks: async () => (await import('../../apps/webhooks/src/webhooks.app.js')).createWebhooksApp,
  analytics: async () => (await import('../../apps/analytics/src/analytics.app.js')).createAnalyticsApp,
};

/** Start order: the feed followers first, then the command side, then the API. */
export const ALL_APPS: AppName[] = ['projector', 'posts', 'accounts', 'publisher', 'comments', 'webhooks', 'analytics', 'gateway'];

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
    const app = await (await APP_FACTORIES[name]())(this.config, this.options);
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
