import { Injectable } from '@nestjs/common';
import { KeyPrincipal, WorkspaceStore } from '@app/workspaces';

const CACHE_TTL_MS = 2_000;
const CACHE_MAX = 10_000;

/**
 * Looks keys up by digest, with a short cache so a busy client costs one query
 * every two seconds rather than one per request. A revoked key stops working
 * within that time. Unknown keys are not cached (no memory for guessing).
 */
@Injectable()
export class KeyAuthenticator {
  private readonly cache = new Map<string, { principal: KeyPrincipal; expires: number }>();

  constructor(private readonly workspaces: WorkspaceStore) {}

  async authenticate(key: string): Promise<KeyPrincipal | null> {
    const now = Date.now();
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.principal;
    const principal = await this.workspaces.authenticate(key);
    this.cache.delete(key);
    if (principal) {
      if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { principal, expires: now + CACHE_TTL_MS });
    }
    return principal;
  }
}
