import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { API_KEY_PREFIX_LENGTH, DEFAULT_API_KEY_SCOPES } from '../../../core/domain/api-key.ts';
import { CreateApiKey } from '../../../core/use-cases/api-keys/create-api-key.ts';
import { ListApiKeys, MAX_API_KEYS_LISTED } from '../../../core/use-cases/api-keys/list-api-keys.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };
const ORG_B = { organizationId: 'org-b', userId: 'user-b' };

function create(core: TestCore) {
  return new CreateApiKey(core);
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

describe('CreateApiKey', () => {
  it('returns the full key once and stores only its SHA-256 hash and a display prefix', async () => {
    const core = buildCore();

    const created = await create(core).execute(ORG_A, { name: 'Checkout server' });

    expect(created.key).to.match(/^nk_test_[A-Za-z0-9_-]{43}$/);
    const stored = core.storage.state.apiKeys.get(created.id)!;
    expect(stored.keyHash).to.equal(core.secrets.sha256(created.key));
    expect(stored.prefix).to.equal(created.key.slice(0, API_KEY_PREFIX_LENGTH)).and.to.have.length(API_KEY_PREFIX_LENGTH);
    expect(JSON.stringify(stored)).to.not.include(created.key);
    expect(stored).to.deep.include({ organizationId: 'org-a', createdByUserId: 'user-a', name: 'Checkout server' });
    expect(created).to.not.have.property('keyHash');
  });

  it('defaults to a sandbox key with the default scopes, no expiry and an active state', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, { name: '  Defaults  ' });
    expect(created).to.deep.include({
      name: 'Defaults', isSandbox: true, scopes: DEFAULT_API_KEY_SCOPES, expiresAt: null, revokedAt: null, lastUsedAt: null,
      state: 'active', createdAt: core.clock.now().toISOString(),
    });
  });

  it('creates a live key with the given scopes, duplicates removed, and a future expiry', async () => {
    const core = buildCore();
    const expiresAt = new Date(core.clock.now().getTime() + 86_400_000).toISOString();
    const created = await create(core).execute(ORG_A, {
      name: 'Live', isSandbox: false, scopes: ['messages:send', 'events:trigger', 'messages:send'], expiresAt,
    });
    expect(created.key).to.match(/^nk_live_/);
    expect(created).to.deep.include({ isSandbox: false, scopes: ['messages:send', 'events:trigger'], expiresAt });
  });

  it('rejects an unknown scope with VALIDATION_ERROR naming it', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'Bad scope', scopes: ['messages:send', 'wallet:drain'] }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.property('scopes');
    expect(error.message).to.include('wallet:drain');
    expect(core.storage.state.apiKeys.size).to.equal(0);
  });

  it('rejects an expiry in the past, or now, with VALIDATION_ERROR on expiresAt', async () => {
    const core = buildCore();
    for (const expiresAt of ['2020-01-01T00:00:00Z', core.clock.now().toISOString()]) {
      const error = await rejection(create(core).execute(ORG_A, { name: 'Old', expiresAt }));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details).to.deep.equal({ fieldErrors: { expiresAt: ['must be in the future'] }, formErrors: [] });
    }
  });

  it('rejects an expiry that is not an ISO date-time with VALIDATION_ERROR', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'Soon', expiresAt: 'next tuesday' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.property('expiresAt');
  });

  it('answers NAME_REQUIRED for a missing or blank name, even when other fields are invalid too', async () => {
    const core = buildCore();
    for (const body of [{}, { name: '   ' }, { name: null }, undefined, { scopes: ['nope:nope'], expiresAt: 'yesterday' }]) {
      const error = await rejection(create(core).execute(ORG_A, body));
      expect(error.code, JSON.stringify(body)).to.equal('NAME_REQUIRED');
    }
    expect(core.storage.state.apiKeys.size).to.equal(0);
  });

  it('treats a non-string name as a VALIDATION_ERROR, not a missing one', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 42 }));
    expect(error.code).to.equal('VALIDATION_ERROR');
  });

  it('ignores an organization id in the body: the key belongs to the caller\'s organization', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, { name: 'Sneaky', organizationId: 'org-b', keyHash: 'chosen' });
    const stored = core.storage.state.apiKeys.get(created.id)!;
    expect(stored.organizationId).to.equal('org-a');
    expect(stored.keyHash).to.not.equal('chosen');
  });
});

describe('ListApiKeys', () => {
  it('lists the organization\'s keys newest first with prefixes only, never the key or its hash', async () => {
    const core = buildCore();
    const first = await create(core).execute(ORG_A, { name: 'First' });
    core.clock.advance(1_000);
    const second = await create(core).execute(ORG_A, { name: 'Second' });
    await create(core).execute(ORG_B, { name: 'Other tenant' });

    const listed = await new ListApiKeys(core).execute(ORG_A);

    expect(listed.map((k) => k.id)).to.deep.equal([second.id, first.id]);
    expect(listed[0]!.prefix).to.equal(second.key.slice(0, API_KEY_PREFIX_LENGTH));
    for (const view of listed) {
      expect(view).to.not.have.any.keys('key', 'keyHash', 'organizationId');
      expect(JSON.stringify(view)).to.not.include(second.key).and.not.include(core.secrets.sha256(second.key));
    }
  });

  it(`returns at most ${MAX_API_KEYS_LISTED} keys`, async () => {
    const core = buildCore();
    for (let i = 0; i < MAX_API_KEYS_LISTED + 3; i += 1) await create(core).execute(ORG_A, { name: `Key ${i}` });
    expect(await new ListApiKeys(core).execute(ORG_A)).to.have.length(MAX_API_KEYS_LISTED);
  });

  it('shows expired keys as expired once their time has passed', async () => {
    const core = buildCore();
    await create(core).execute(ORG_A, { name: 'Brief', expiresAt: new Date(core.clock.now().getTime() + 60_000).toISOString() });
    core.clock.advance(60_000);
    const [view] = await new ListApiKeys(core).execute(ORG_A);
    expect(view!.state).to.equal('expired');
  });
});
