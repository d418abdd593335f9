import type { RetryPolicy } from '../http/retry-policy';

/** What every platform's sign-in client is built from. */
export interface AuthContext {
  /** The platform's API base url as configured (the real host, or the sandbox's prefix). */
  apiBaseUrl: string;
  /**
   * Null: the platform's real sign-in hosts (consent page, token endpoint...). Set when the
   * platform is pointed elsewhere (the sandbox): every sign-in endpoint lives under it.
   */
  signInBaseUrl: string | null;
  retry: RetryPolicy;
  /** The LinkedIn-Version to send (configuration); the connector's current default when absent. */
  linkedInApiVersion?: string;
}
