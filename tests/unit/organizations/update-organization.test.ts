import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { UpdateOrganization } from '../../../core/use-cases/organizations/update-organization.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { registerOwner, type MemberScope } from './organization-fixtures.ts';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.catch((e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('UpdateOrganization', () => {
  let core: TestCore;
  let owner: MemberScope;
  let update: UpdateOrganization;
  beforeEach(async () => {
    core = buildCore();
    owner = await registerOwner(core, 'owner@example.com');
    update = new UpdateOrganization(core);
  });

  it('changes every spec field and stores the result', async () => {
    core.clock.advance(5_000);
    const result = await update.execute(owner, {
      name: '  Adinkra Health  ', industry: 'Healthcare', businessPhone: '+233 24 123 4567', businessEmail: 'Ops@Adinkra.example',
      timezone: 'Africa/Lagos', defaultLanguage: 'fr', website: 'https://adinkra.example', onboardingComplete: true,
      complianceAcknowledged: true, monthlyVolume: 25_000, preferredChannels: ['SMS', 'EMAIL', 'SMS'],
    });
    expect(result).to.include({
      name: 'Adinkra Health', industry: 'Healthcare', businessPhone: '+233 24 123 4567', businessEmail: 'ops@adinkra.example',
      timezone: 'Africa/Lagos', defaultLanguage: 'fr', website: 'https://adinkra.example', onboardingComplete: true,
      complianceAcknowledged: true, monthlyVolume: 25_000, updatedAt: '2026-01-15T09:00:05.000Z',
    });
    expect(result.preferredChannels).to.deep.equal(['SMS', 'EMAIL']);
    const stored = await core.storage.organizations.findById(owner.organizationId);
    expect(stored).to.include({ name: 'Adinkra Health', monthlyVolume: 25_000 });
  });

  it('changes nothing, not even updatedAt, for an empty body', async () => {
    core.clock.advance(5_000);
    const result = await update.execute(owner, {});
    expect(result).to.include({ name: 'Kente Ltd', updatedAt: '2026-01-15T09:00:00.000Z' });
  });

  it('ignores unknown fields such as paused or id', async () => {
    const result = await update.execute(owner, { paused: true, id: 'chosen', createdAt: '2000-01-01T00:00:00Z', industry: 'Retail' });
    expect(result).to.include({ id: owner.organizationId, paused: false, industry: 'Retail', createdAt: '2026-01-15T09:00:00.000Z' });
  });

  it('clears an optional field given null or an empty string', async () => {
    await update.execute(owner, { industry: 'Retail', website: 'https://kente.example', monthlyVolume: 10 });
    const result = await update.execute(owner, { industry: '', website: null, monthlyVolume: null });
    expect(result).to.include({ industry: null, website: null, monthlyVolume: null });
  });

  it('rejects a bad businessEmail, website, timezone and monthlyVolume with VALIDATION_ERROR per field', async () => {
    const error = await failure(update.execute(owner, {
      businessEmail: 'not-an-email', website: 'ftp://files.example', timezone: 'Mars/Olympus', monthlyVolume: 2.5,
    }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.keys('businessEmail', 'website', 'timezone', 'monthlyVolume');
    expect((await core.storage.organizations.findById(owner.organizationId))?.businessEmail).to.equal(null);
  });

  it('rejects a negative monthlyVolume, an offset timezone, an unknown channel and a blank name', async () => {
    const error = await failure(update.execute(owner, { monthlyVolume: -1, timezone: '+01:00', preferredChannels: ['SMS', 'FAX'], name: '  ' }));
    expect(error.details['fieldErrors']).to.have.keys('monthlyVolume', 'timezone', 'preferredChannels', 'name');
  });

  it('accepts real IANA zones, fixing their capitalisation but keeping their spelling (utc, africa/accra, America/Argentina/Buenos_Aires)', async () => {
    expect((await update.execute(owner, { timezone: 'utc' })).timezone).to.equal('UTC');
    expect((await update.execute(owner, { timezone: 'africa/accra' })).timezone).to.equal('Africa/Accra');
    expect((await update.execute(owner, { timezone: 'America/Argentina/Buenos_Aires' })).timezone).to.equal('America/Argentina/Buenos_Aires');
  });

  it('fails with NOT_FOUND when the organization does not exist', async () => {
    const error = await failure(update.execute({ ...owner, organizationId: 'missing' }, { name: 'X' }));
    expect(error.code).to.equal('NOT_FOUND');
  });
});
