import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { GetCurrentOrganization } from '../../../core/use-cases/organizations/get-current-organization.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { addMember, registerOwner } from './organization-fixtures.ts';

describe('GetCurrentOrganization', () => {
  let core: TestCore;
  beforeEach(() => { core = buildCore(); });

  it('returns the organization with its GHS wallet and its members with profiles and roles', async () => {
    const owner = await registerOwner(core, 'owner@example.com');
    core.clock.advance(60_000);
    const dev = await addMember(core, owner.organizationId, 'dev@example.com', 'DEVELOPER');
    await core.storage.wallets.update(owner.organizationId, () => ({ amount: 12_345, kind: 'TOP_UP', reference: 'ref-1', description: 'top-up' }), core.clock.now());

    const result = await new GetCurrentOrganization(core).execute(owner);

    expect(result).to.include({ id: owner.organizationId, name: 'Kente Ltd', timezone: 'Africa/Accra', defaultLanguage: 'en' });
    expect(result.wallet).to.include({ balance: 123.45, currency: 'GHS' });
    expect(result.members).to.deep.equal([
      { id: owner.userId, email: 'owner@example.com', firstName: 'Ama', lastName: 'Mensah', role: 'TENANT_OWNER', joinedAt: '2026-01-15T09:00:00.000Z' },
      { id: dev.userId, email: 'dev@example.com', firstName: 'Kofi', lastName: 'Boateng', role: 'DEVELOPER', joinedAt: '2026-01-15T09:01:00.000Z' },
    ]);
    expect(JSON.stringify(result)).to.not.include('passwordHash');
  });

  it('fails with NOT_FOUND when the organization does not exist', async () => {
    const error = await new GetCurrentOrganization(core).execute({ organizationId: 'missing', userId: 'u', role: 'TENANT_OWNER' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AppError).and.have.property('code', 'NOT_FOUND');
  });

  it('lists at most 200 members', async () => {
    const owner = await registerOwner(core, 'big@example.com');
    const userIds = Array.from({ length: 205 }, (_, i) => `bulk-user-${i}`);
    for (const userId of userIds) {
      await core.storage.users.insert({ id: userId, email: `${userId}@example.com`, passwordHash: 'x', firstName: 'A', lastName: 'B', platformRole: null, createdAt: core.clock.now() });
      await core.storage.memberships.insert({ id: core.ids.next(), organizationId: owner.organizationId, userId, role: 'VIEWER', createdAt: core.clock.now() });
    }
    const result = await new GetCurrentOrganization(core).execute(owner);
    expect(result.members).to.have.length(200);
  });
});
