import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { CreateApiKey } from '../../../core/use-cases/api-keys/create-api-key.ts';
import { RevokeApiKey } from '../../../core/use-cases/api-keys/revoke-api-key.ts';
import { AuthenticateApiKey } from '../../../core/use-cases/api-keys/authenticate-api-key.ts';
import { CachedApiKeyLookup } from '../../../adapters/cache/cached-api-key-lookup.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };
const ORG_B = { organizationId: 'org-b', userId: 'user-b' };

function revoke(core: TestCore, apiKeys = core.apiKeyLookup) {
  return new RevokeApiKey({ ...core, apiKeys });
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('RevokeApiKey', () => {
  it('marks the key revoked and returns its view', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Old server' });
    core.clock.advance(5_000);

    const view = await revoke(core).execute(ORG_A, created.id);

    expect(view).to.deep.include({ id: created.id, state: 'revoked', revokedAt: core.clock.now().toISOString() });
    expect(core.storage.state.apiKeys.get(created.id)!.revokedAt).to.deep.equal(core.clock.now());
  });

  it('is idempotent: a second revoke answers the same view with the first revokedAt', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Twice' });
    const first = await revoke(core).execute(ORG_A, created.id);
    core.clock.advance(60_000);
    const second = await revoke(core).execute(ORG_A, created.id);
    expect(second).to.deep.equal(first);
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    const core = buildCore();
    expect((await rejection(revoke(core).execute(ORG_A, 'no-such-key'))).code).to.equal('NOT_FOUND');
    expect((await rejection(revoke(core).execute(ORG_A, 'x'.repeat(500)))).code).to.equal('NOT_FOUND');
  });

  it('keeps tenants apart: organization B cannot revoke organization A\'s key (NOT_FOUND) and the key keeps working', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Tenant A' });

    const error = await rejection(revoke(core).execute(ORG_B, created.id));

    expect(error.code).to.equal('NOT_FOUND');
    expect(core.storage.state.apiKeys.get(created.id)!.revokedAt).to.equal(null);
    const authenticated = await new AuthenticateApiKey({ ...core, apiKeys: core.apiKeyLookup }).execute(created.key, 'messages:send');
    expect(authenticated.organizationId).to.equal('org-a');
  });

  it('takes effect at once through a caching lookup in this process', async () => {
    const core = buildCore();
    const cached = new CachedApiKeyLookup(core.storage, { ttlMs: 60_000 });
    const authenticate = new AuthenticateApiKey({ ...core, apiKeys: cached });
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Cached' });
    await authenticate.execute(created.key, 'messages:send'); // now cached as active

    await revoke(core, cached).execute(ORG_A, created.id);

    expect((await rejection(authenticate.execute(created.key, 'messages:send'))).code).to.equal('UNAUTHORIZED');
  });
});
