import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import type { OutgoingEmail } from '../../../core/ports/email-sender.ts';
import { InviteMember } from '../../../core/use-cases/organizations/invite-member.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { addMember, registerOwner, registerPerson, type MemberScope } from './organization-fixtures.ts';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('InviteMember', () => {
  let core: TestCore;
  let owner: MemberScope;
  let invite: InviteMember;
  beforeEach(async () => {
    core = buildCore();
    owner = await registerOwner(core, 'owner@example.com');
    invite = new InviteMember(core);
  });

  it('adds a registered user with the given role and emails them', async () => {
    const userId = await registerPerson(core, 'kofi@example.com');
    const member = await invite.execute(owner, { email: 'KOFI@example.com', role: 'CAMPAIGN_MANAGER' });
    expect(member).to.deep.equal({
      id: userId, email: 'kofi@example.com', firstName: 'Kofi', lastName: 'Boateng', role: 'CAMPAIGN_MANAGER', joinedAt: '2026-01-15T09:00:00.000Z',
    });
    expect(await core.storage.memberships.find(owner.organizationId, userId)).to.include({ role: 'CAMPAIGN_MANAGER' });
    const email = core.email.lastTo('kofi@example.com');
    expect(email?.subject).to.equal('You have been added to Kente Ltd');
    expect(email?.text).to.include('CAMPAIGN_MANAGER').and.include('owner@example.com');
  });

  it('grants VIEWER when no role is given', async () => {
    await registerPerson(core, 'kofi@example.com');
    expect((await invite.execute(owner, { email: 'kofi@example.com' })).role).to.equal('VIEWER');
  });

  it('fails with USER_NOT_FOUND for an email nobody registered, and sends nothing', async () => {
    const error = await failure(invite.execute(owner, { email: 'nobody@example.com' }));
    expect(error.code).to.equal('USER_NOT_FOUND');
    expect(core.email.sent.filter((e) => e.to === 'nobody@example.com')).to.deep.equal([]);
  });

  it('fails with CONFLICT for an existing member and keeps their role', async () => {
    const dev = await addMember(core, owner.organizationId, 'dev@example.com', 'DEVELOPER');
    const error = await failure(invite.execute(owner, { email: 'dev@example.com', role: 'TENANT_ADMIN' }));
    expect(error.code).to.equal('CONFLICT');
    expect(error.message).to.include('already a member');
    expect(await core.storage.memberships.find(owner.organizationId, dev.userId)).to.include({ role: 'DEVELOPER' });
  });

  it('lets a TENANT_ADMIN grant every role but TENANT_OWNER', async () => {
    const admin = await addMember(core, owner.organizationId, 'admin@example.com', 'TENANT_ADMIN');
    await registerPerson(core, 'a@example.com');
    await registerPerson(core, 'b@example.com');
    expect((await invite.execute(admin, { email: 'a@example.com', role: 'TENANT_ADMIN' })).role).to.equal('TENANT_ADMIN');
    const error = await failure(invite.execute(admin, { email: 'b@example.com', role: 'TENANT_OWNER' }));
    expect(error.code).to.equal('FORBIDDEN');
    expect(await core.storage.memberships.countByOrganization(owner.organizationId)).to.equal(3);
  });

  it('lets only TENANT_OWNER make another owner', async () => {
    await registerPerson(core, 'co-owner@example.com');
    expect((await invite.execute(owner, { email: 'co-owner@example.com', role: 'TENANT_OWNER' })).role).to.equal('TENANT_OWNER');
  });

  for (const role of ['CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER', 'DEVELOPER', 'VIEWER'] as const) {
    it(`refuses a ${role} with FORBIDDEN, even for the VIEWER role`, async () => {
      const member = await addMember(core, owner.organizationId, `${role.toLowerCase()}@example.com`, role);
      await registerPerson(core, 'kofi@example.com');
      const error = await failure(invite.execute(member, { email: 'kofi@example.com', role: 'VIEWER' }));
      expect(error.code).to.equal('FORBIDDEN');
    });
  }

  it('rejects a bad email and an unknown role with VALIDATION_ERROR', async () => {
    const error = await failure(invite.execute(owner, { email: 'not-an-email', role: 'SUPERUSER' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.keys('email', 'role');
  });

  it('keeps the member when the notification email cannot be sent, and reports the failure', async () => {
    const userId = await registerPerson(core, 'kofi@example.com');
    const failures: unknown[] = [];
    const broken = { send: async (_email: OutgoingEmail) => { throw new Error('smtp down'); } };
    const member = await new InviteMember({ ...core, email: broken, onEmailError: (error) => failures.push(error) })
      .execute(owner, { email: 'kofi@example.com' });
    expect(member.role).to.equal('VIEWER');
    expect(await core.storage.memberships.find(owner.organizationId, userId)).to.not.equal(null);
    expect(failures).to.have.length(1);
  });
});
