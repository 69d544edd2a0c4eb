import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { AuthenticateApiKey } from '../../../core/use-cases/api-keys/authenticate-api-key.ts';
import { CreateApiKey } from '../../../core/use-cases/api-keys/create-api-key.ts';
import { RevokeApiKey } from '../../../core/use-cases/api-keys/revoke-api-key.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };

function authenticate(core: TestCore) {
  return new AuthenticateApiKey({ ...core, apiKeys: core.apiKeyLookup });
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

describe('AuthenticateApiKey', () => {
  it('resolves a valid key to its organization, sandbox flag and scopes, and records its use', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Live', isSandbox: false, scopes: ['events:trigger'] });

    const result = await authenticate(core).execute(created.key, 'events:trigger');

    expect(result).to.deep.equal({ id: created.id, organizationId: 'org-a', isSandbox: false, scopes: ['events:trigger'] });
    await new Promise((resolve) => setImmediate(resolve)); // the touch does not block the request
    expect(core.storage.state.apiKeys.get(created.id)!.lastUsedAt).to.deep.equal(core.clock.now());
  });

  it('checks the key\'s allowed address ranges after its validity and before its scope; records the normalized address', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Office', scopes: ['messages:send'], allowedCidrs: ['203.0.113.0/24', '2001:db8::/32'] });
    const outside = await rejection(authenticate(core).execute(created.key, 'messages:send', '198.51.100.7'));
    expect([outside.code, outside.message]).to.deep.equal(['API_KEY_ADDRESS_NOT_ALLOWED', 'This API key may not be used from 198.51.100.7; its allowed address ranges do not include it']);
    expect((await rejection(authenticate(core).execute(created.key, 'messages:send', null))).code).to.equal('API_KEY_ADDRESS_NOT_ALLOWED');
    expect((await rejection(authenticate(core).execute(created.key, 'events:trigger', '198.51.100.7'))).code).to.equal('API_KEY_ADDRESS_NOT_ALLOWED');
    expect((await rejection(authenticate(core).execute(created.key, 'events:trigger', '203.0.113.9'))).code).to.equal('FORBIDDEN');
    await new Promise((resolve) => setImmediate(resolve));
    expect(core.storage.state.apiKeys.get(created.id)!.lastUsedAt).to.equal(null); // refused uses are not recorded
    expect(await authenticate(core).execute(created.key, 'messages:send', '2001:DB8:0::42')).to.include({ id: created.id });
    await new Promise((resolve) => setImmediate(resolve));
    expect(core.storage.state.apiKeys.get(created.id)!.lastUsedIp).to.equal('2001:db8::42');
  });

  it('refuses an unknown key with UNAUTHORIZED', async () => {
    const core = buildCore();
    const error = await rejection(authenticate(core).execute(`nk_test_${'a'.repeat(43)}`, 'messages:send'));
    expect(error.code).to.equal('UNAUTHORIZED');
  });

  it('refuses malformed keys with UNAUTHORIZED', async () => {
    const core = buildCore();
    for (const text of ['', 'Bearer abc', 'nk_prod_aaaaaaaaaaaaaaaaaaaaaaaa', 'nk_test_short', `nk_test_${'a'.repeat(30)} `, `nk_test_${'a'.repeat(300)}`]) {
      expect((await rejection(authenticate(core).execute(text, 'messages:send'))).code, text).to.equal('UNAUTHORIZED');
    }
  });

  it('refuses a revoked key with UNAUTHORIZED', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Revoked' });
    await new RevokeApiKey({ ...core, apiKeys: core.apiKeyLookup }).execute(ORG_A, created.id);
    const error = await rejection(authenticate(core).execute(created.key, 'messages:send'));
    expect(error.code).to.equal('UNAUTHORIZED');
    expect(error.message).to.include('revoked');
  });

  it('refuses a key once its expiry has passed with UNAUTHORIZED', async () => {
    const core = buildCore();
    const expiresAt = new Date(core.clock.now().getTime() + 60_000).toISOString();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Brief', expiresAt });
    expect((await authenticate(core).execute(created.key, 'messages:send')).id).to.equal(created.id);

    core.clock.advance(60_000);

    const error = await rejection(authenticate(core).execute(created.key, 'messages:send'));
    expect(error.code).to.equal('UNAUTHORIZED');
    expect(error.message).to.include('expired');
  });

  it('refuses a key lacking the route\'s scope with FORBIDDEN', async () => {
    const core = buildCore();
    const created = await new CreateApiKey(core).execute(ORG_A, { name: 'Read only', scopes: ['messages:read'] });
    const error = await rejection(authenticate(core).execute(created.key, 'messages:send'));
    expect(error.code).to.equal('FORBIDDEN');
    expect(error.message).to.include('messages:send');
  });
});
