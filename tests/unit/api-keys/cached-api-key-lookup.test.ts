import { expect } from 'chai';
import { CachedApiKeyLookup } from '../../../adapters/cache/cached-api-key-lookup.ts';
import type { ApiKey } from '../../../core/domain/api-key.ts';
import type { Storage } from '../../../core/ports/storage.ts';

const KEY: ApiKey = {
  id: 'key-1', organizationId: 'org-a', name: 'k', prefix: 'nk_test_abcd', keyHash: 'hash-1', isSandbox: true, scopes: ['messages:send'],
  expiresAt: null, revokedAt: null, lastUsedAt: null, lastUsedIp: null, allowedCidrs: [], createdByUserId: 'user-a', createdAt: new Date('2026-01-01T00:00:00Z'),
};

/** A repository whose reads wait until the test releases them, counting each one. */
function slowRepository() {
  const state = { reads: 0, stored: KEY as ApiKey | null, release: [] as Array<() => void> };
  const apiKeys = {
    findByHash: async (keyHash: string) => {
      state.reads += 1;
      const answer = state.stored && state.stored.keyHash === keyHash ? { ...state.stored } : null;
      await new Promise<void>((resolve) => state.release.push(resolve));
      return answer;
    },
  };
  const releaseAll = () => { for (const release of state.release.splice(0)) release(); };
  return { state, storage: { apiKeys } as unknown as Storage, releaseAll };
}

describe('CachedApiKeyLookup', () => {
  it('shares one database read among concurrent misses for the same key, then serves from memory', async () => {
    const { state, storage, releaseAll } = slowRepository();
    const lookup = new CachedApiKeyLookup(storage, { ttlMs: 60_000 });

    const lookups = Array.from({ length: 50 }, () => lookup.findByHash('hash-1'));
    await new Promise((resolve) => setImmediate(resolve));
    releaseAll();
    const keys = await Promise.all(lookups);

    expect(state.reads).to.equal(1);
    expect(keys.every((k) => k?.id === 'key-1')).to.equal(true);
    expect((await lookup.findByHash('hash-1'))?.id).to.equal('key-1');
    expect(state.reads).to.equal(1);
  });

  it('does not cache a read that was in flight when the key was forgotten (a revocation racing a lookup)', async () => {
    const { state, storage, releaseAll } = slowRepository();
    const lookup = new CachedApiKeyLookup(storage, { ttlMs: 60_000 });

    const racing = lookup.findByHash('hash-1'); // reads the key before it is revoked
    await new Promise((resolve) => setImmediate(resolve));
    state.stored = { ...KEY, revokedAt: new Date('2026-01-02T00:00:00Z') };
    lookup.forget('hash-1');
    releaseAll();
    expect((await racing)?.revokedAt).to.equal(null);

    const next = lookup.findByHash('hash-1');
    await new Promise((resolve) => setImmediate(resolve));
    releaseAll();
    expect((await next)?.revokedAt).to.be.an.instanceOf(Date);
    expect(state.reads).to.equal(2);
  });

  it('remembers an unknown key briefly so a flood of bad keys does not reach the database', async () => {
    const { state, storage, releaseAll } = slowRepository();
    const lookup = new CachedApiKeyLookup(storage, { ttlMs: 60_000 });
    const first = lookup.findByHash('no-such-hash');
    await new Promise((resolve) => setImmediate(resolve));
    releaseAll();
    expect(await first).to.equal(null);
    expect(await lookup.findByHash('no-such-hash')).to.equal(null);
    expect(state.reads).to.equal(1);
  });
});
