import { expect } from 'chai';
import { ListMembers } from '../../../core/use-cases/organizations/list-members.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { addMember, registerOwner } from './organization-fixtures.ts';

describe('ListMembers', () => {
  let core: TestCore;
  beforeEach(() => { core = buildCore(); });

  it('lists the members of the caller\'s organization only, oldest first, with profiles and roles', async () => {
    const a = await registerOwner(core, 'a@example.com', 'Org A');
    const b = await registerOwner(core, 'b@example.com', 'Org B');
    core.clock.advance(1_000);
    await addMember(core, a.organizationId, 'viewer@example.com', 'VIEWER');
    await addMember(core, b.organizationId, 'other@example.com', 'DEVELOPER');

    const members = await new ListMembers(core).execute(a);

    expect(members.map((m) => [m.email, m.role])).to.deep.equal([['a@example.com', 'TENANT_OWNER'], ['viewer@example.com', 'VIEWER']]);
    expect(members[1]).to.have.keys('id', 'email', 'firstName', 'lastName', 'role', 'joinedAt');
  });
});
