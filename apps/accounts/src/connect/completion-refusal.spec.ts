import type { PendingConnection } from '@app/accounts';
import { completionRefusal } from './completion-refusal';
import { newConnectVerifier } from './connect-verifier';

describe('completionRefusal: who may attach a pending connection', () => {
  const { verifier, hash } = newConnectVerifier();
  const now = new Date('2026-01-01T10:00:00Z');
  const connection = (changes: Partial<PendingConnection> = {}): PendingConnection => ({
    connectionId: 'c',
    workspaceId: 'w1',
    verifierHash: hash,
    expiresAt: new Date(now.getTime() + 60_000),
    completedAt: null,
    ...changes,
  });
  const codeOf = (pending: PendingConnection | null, attempt: { workspaceId?: string | null; verifier?: string; at?: Date } = {}) =>
    completionRefusal(pending, { workspaceId: attempt.workspaceId === undefined ? 'w1' : attempt.workspaceId, verifier: attempt.verifier ?? verifier, now: attempt.at ?? now })?.code ?? null;

  it('lets the starter complete, in its workspace or with the verifier alone (the connect page)', () => {
    expect(codeOf(connection())).toBeNull();
    expect(codeOf(connection(), { workspaceId: null })).toBeNull();
  });

  it('answers not_found for no connection and for another workspace, before looking at the verifier', () => {
    expect(codeOf(null)).toBe('not_found');
    expect(codeOf(connection(), { workspaceId: 'w2' })).toBe('not_found');
    expect(codeOf(connection(), { workspaceId: 'w2', verifier: 'wrong' })).toBe('not_found');
  });

  it('refuses a wrong verifier before telling anything of the state (completed, expired)', () => {
    expect(codeOf(connection(), { verifier: 'wrong' })).toBe('connection_verifier_invalid');
    expect(codeOf(connection({ completedAt: now }), { verifier: newConnectVerifier().verifier })).toBe('connection_verifier_invalid');
    expect(codeOf(connection({ expiresAt: now }), { verifier: '' })).toBe('connection_verifier_invalid');
  });

  it('is single-use, then expires at its time', () => {
    expect(codeOf(connection({ completedAt: now }))).toBe('connection_already_completed');
    expect(codeOf(connection({ expiresAt: now }))).toBe('connection_expired');
    expect(codeOf(connection(), { at: new Date(now.getTime() + 60_001) })).toBe('connection_expired');
  });
});
