import { AppConfig, PLATFORMS_WITH_OWN_APP } from '@app/config';
import type { RunningPlatformSandbox } from '@app/platform-sandbox';
import type { LocalState } from './local-environment';

/** The gateway's port as npm start serves it (PORT, default 3000): the sign-in callback names it. */
export function localPort(env: NodeJS.ProcessEnv): number {
  return Number(env.PORT || 3000);
}

/** How often `npm start` polls the sandbox for comments unless COMMENTS_POLL_INTERVAL_MS says otherwise (the real platforms' defaults are minutes). */
const LOCAL_COMMENTS_POLL_INTERVAL_MS = 3_000;

/** npm start's analytics pace: every minute for the first hour, then the production steps. */
const LOCAL_ANALYTICS_SCHEDULE = '1m/1h,1h/2d,1d/30d,7d/90d';

/** This machine, by name and by address: where a developer's own client and webhook receiver run. */
const LOCAL_HOSTS = 'localhost,127.0.0.1,[::1]';

/** MEDIA_ALLOWED_HOSTS as configured, plus the sandbox's media host (on loopback, so refused otherwise). */
function withSandboxMediaHost(configured: string | undefined, mediaUrl: string): string {
  return [configured, new URL(mediaUrl).host].filter(Boolean).join(',');
}

/**
 * Our app on every platform as the sandbox plays it: a client id and secret per platform
 * (the sandbox accepts any app, as a platform accepts one registered with it; Mastodon's is
 * registered on the instance at first use and Bluesky signs in with an app password, so theirs
 * go unused) and the callback on this gateway. Values the environment gives win.
 */
function sandboxSignIn(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const apps: NodeJS.ProcessEnv = {};
  for (const platform of PLATFORMS_WITH_OWN_APP) {
    const prefix = platform.toUpperCase();
    apps[`${prefix}_CLIENT_ID`] = env[`${prefix}_CLIENT_ID`] || `local-${platform}-app`;
    apps[`${prefix}_CLIENT_SECRET`] = env[`${prefix}_CLIENT_SECRET`] || `local-${platform}-secret`;
  }
  apps.OAUTH_CALLBACK_URL = env.OAUTH_CALLBACK_URL || `http://localhost:${localPort(env)}/api/v1/accounts/connect/callback`;
  return apps;
}

/**
 * The configuration npm start runs with: the environment, over it the database and NATS it
 * found or started and the local credential key; with the sandbox, every platform there, its
 * media host allowed, and signing in (POST /api/v1/accounts/connect) ready on every platform.
 */
export function localConfig(input: { env: NodeJS.ProcessEnv; databaseUrl: string; natsUrl: string; state: LocalState; sandbox: RunningPlatformSandbox | null }): AppConfig {
  const { env, sandbox } = input;
  return AppConfig.fromEnv({
    ...env,
    DATABASE_URL: input.databaseUrl,
    NATS_URL: input.natsUrl,
    TOKEN_ENCRYPTION_KEY: env.TOKEN_ENCRYPTION_KEY ?? input.state.tokenEncryptionKey,
    ...(sandbox
      ? {
          PLATFORM_SANDBOX_URL: sandbox.url,
          MEDIA_ALLOWED_HOSTS: withSandboxMediaHost(env.MEDIA_ALLOWED_HOSTS, sandbox.mediaUrl),
          // The sandbox has no read quota to spare: a comment left on it shows in the list within seconds.
          COMMENTS_POLL_INTERVAL_MS: env.COMMENTS_POLL_INTERVAL_MS ?? String(LOCAL_COMMENTS_POLL_INTERVAL_MS),
          // A person watching npm start sees the numbers move: collected 10 s after publishing, then every minute for the first hour.
          ANALYTICS_FIRST_COLLECTION_MS: env.ANALYTICS_FIRST_COLLECTION_MS ?? '10000',
          ANALYTICS_SCHEDULE: env.ANALYTICS_SCHEDULE ?? LOCAL_ANALYTICS_SCHEDULE,
          ANALYTICS_TICK_MS: env.ANALYTICS_TICK_MS ?? '5000',
          ...sandboxSignIn(env),
        }
      : {}),
    // A local run is development: a sign-in may send the user back to a client on this machine (over http),
    // and webhooks may go to a receiver on this machine (over http), as the README's walkthrough does.
    OAUTH_REDIRECT_ALLOWED_HOSTS: env.OAUTH_REDIRECT_ALLOWED_HOSTS ?? LOCAL_HOSTS,
    WEBHOOK_ALLOWED_HOSTS: env.WEBHOOK_ALLOWED_HOSTS ?? LOCAL_HOSTS,
  });
}

/** Unless a PLATFORM_* variable is set, everything publishes to the local platform sandbox. */
export function usesSandbox(env: NodeJS.ProcessEnv): boolean {
  return !Object.keys(env).some((name) => name.startsWith('PLATFORM_'));
}
