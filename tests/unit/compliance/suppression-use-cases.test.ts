import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { AddSuppression } from '../../../core/use-cases/compliance/add-suppression.ts';
import { GetComplianceSummary } from '../../../core/use-cases/compliance/get-compliance-summary.ts';
import { ListSuppressions } from '../../../core/use-cases/compliance/list-suppressions.ts';
import { RemoveSuppression } from '../../../core/use-cases/compliance/remove-suppression.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

describe('suppression use cases', () => {
  let core: TestCore;
  const scope = { organizationId: 'org-1' };
  beforeEach(() => { core = buildCore(); });

  function codeOf(fn: () => unknown): Promise<string> {
    return Promise.resolve().then(fn).then(() => 'none', (e: unknown) => (e instanceof AppError ? e.code : 'other'));
  }

  it('normalizes a national phone with the country code and an email to lowercase', async () => {
    const add = new AddSuppression(core);
    expect(await add.execute(scope, { phone: '080 3123 4567', countryCode: 'NG', channel: 'SMS' })).to.include({ phone: '+2348031234567', channel: 'SMS' });
    expect(await add.execute(scope, { email: '  Kofi@Example.com ', reason: '' })).to.include({ email: 'kofi@example.com', reason: null, channel: null });
  });

  it('keeps both phone and email of one entry', async () => {
    const entry = await new AddSuppression(core).execute(scope, { phone: '0241234567', email: 'a@b.co' });
    expect(entry).to.include({ phone: '+233241234567', email: 'a@b.co' });
  });

  it('refuses blank phone and email, a bad email, and a duplicate', async () => {
    const add = new AddSuppression(core);
    expect(await codeOf(() => add.execute(scope, { phone: '  ', email: '' }))).to.equal('VALIDATION_ERROR');
    expect(await codeOf(() => add.execute(scope, { email: 'not-an-email' }))).to.equal('VALIDATION_ERROR');
    await add.execute(scope, { phone: '0241234567' });
    expect(await codeOf(() => add.execute(scope, { phone: '+233 24 123 4567' }))).to.equal('CONFLICT');
  });

  it('pages the list, removes within the organization only, and summarizes', async () => {
    const add = new AddSuppression(core);
    for (const n of ['0241000001', '0241000002', '0241000003']) { await add.execute(scope, { phone: n }); core.clock.advance(1000); }
    const page = await new ListSuppressions(core).execute(scope, { page: '2', limit: '2' });
    expect(page).to.deep.include({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page.items).to.have.length(1);
    const remove = new RemoveSuppression(core);
    expect(await codeOf(() => remove.execute({ organizationId: 'org-2' }, page.items[0]!.id))).to.equal('NOT_FOUND');
    await remove.execute(scope, page.items[0]!.id);
    expect(await new GetComplianceSummary(core).execute(scope)).to.deep.equal({ suppressionCount: 2, pendingApprovals: 0 });
  });
});
