import { expect } from 'chai';
import sinon from 'sinon';
import { AppError } from '../../../core/errors.ts';
import { HIGH_RISK_CATEGORIES, TEMPLATE_CATEGORIES } from '../../../core/domain/channel.ts';
import { CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };

function create(core: TestCore) {
  return new CreateTemplate(core);
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

describe('CreateTemplate', () => {
  it('creates an APPROVED TRANSACTIONAL template with the spec defaults and the detected variables', async () => {
    const core = buildCore();

    const created = await create(core).execute(ORG_A, { name: '  Order shipped ', channel: 'SMS', body: 'Hi {{ firstName }}, order {{order.id}} is on its way' });

    expect(created).to.deep.include({
      name: 'Order shipped', channel: 'SMS', countryCode: 'GH', language: 'en', category: 'TRANSACTIONAL', subject: null,
      variables: ['firstName', 'order.id'], status: 'APPROVED', reviewComment: null, createdAt: core.clock.now().toISOString(),
    });
    expect(created).to.not.have.property('approvalRequestId');
    const stored = await core.storage.templates.findById('org-a', created.id);
    expect(stored).to.deep.include({ organizationId: 'org-a', createdByUserId: 'user-a', status: 'APPROVED', variables: ['firstName', 'order.id'] });
    expect(await core.storage.approvals.countPending()).to.equal(0);
  });

  it('creates a MARKETING template PENDING_APPROVAL with a pending approval request for platform administrators', async () => {
    const core = buildCore();

    const created = await create(core).execute(ORG_A, { name: 'Promo', channel: 'SMS', category: 'MARKETING', body: 'Akwaaba {{name}}! 20% off today' });

    expect(created.status).to.equal('PENDING_APPROVAL');
    expect(created.approvalRequestId).to.be.a('string');
    const pending = await core.storage.approvals.listPending(10);
    expect(pending).to.have.length(1);
    expect(pending[0]).to.deep.include({
      id: created.approvalRequestId, organizationId: 'org-a', kind: 'TEMPLATE', subjectId: created.id, status: 'PENDING',
      requestedByUserId: 'user-a', decidedByUserId: null, decidedAt: null, comment: null,
    });
    expect(pending[0]!.content).to.deep.equal({ name: 'Promo', channel: 'SMS', category: 'MARKETING', body: 'Akwaaba {{name}}! 20% off today', subject: null });
    expect((await core.storage.templates.findById('org-a', created.id))?.status).to.equal('PENDING_APPROVAL');
  });

  it('holds exactly the high-risk categories (MARKETING, FINTECH, HEALTHCARE, INSURANCE) for approval', async () => {
    const core = buildCore();
    for (const category of TEMPLATE_CATEGORIES) {
      const created = await create(core).execute(ORG_A, { name: category, channel: 'SMS', body: 'Hello', category });
      expect(created.status, category).to.equal(HIGH_RISK_CATEGORIES.includes(category) ? 'PENDING_APPROVAL' : 'APPROVED');
    }
    expect([...HIGH_RISK_CATEGORIES].sort()).to.deep.equal(['FINTECH', 'HEALTHCARE', 'INSURANCE', 'MARKETING']);
    expect(await core.storage.approvals.countPending('org-a')).to.equal(4);
  });

  it('stores neither the template nor the approval request when recording the approval fails', async () => {
    const core = buildCore();
    sinon.stub(core.storage.approvals, 'insert').rejects(new Error('disk full'));

    let failure: unknown = null;
    try {
      await create(core).execute(ORG_A, { name: 'Loan offer', channel: 'SMS', category: 'FINTECH', body: 'Borrow now' });
    } catch (error) {
      failure = error;
    }

    expect(failure).to.be.instanceOf(Error);
    expect(await core.storage.templates.list('org-a', 10)).to.deep.equal([]);
  });

  it('rejects a missing or blank name with VALIDATION_ERROR naming it', async () => {
    const core = buildCore();
    for (const body of [{ channel: 'SMS', body: 'Hi' }, { name: '   ', channel: 'SMS', body: 'Hi' }]) {
      const error = await rejection(create(core).execute(ORG_A, body));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.have.property('name').that.deep.equals(['is required']);
    }
  });

  it('rejects an unknown channel, category, country code or a blank body, naming each field', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'FAX', category: 'SPAM', countryCode: 'GHA', body: '  ' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.all.keys('channel', 'category', 'countryCode', 'body');
  });

  it('accepts IN_APP templates and upper-cases the country code', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, { name: 'Banner', channel: 'IN_APP', body: 'Welcome', countryCode: 'ng' });
    expect(created).to.deep.include({ channel: 'IN_APP', countryCode: 'NG' });
  });

  it('limits the body to 1,600 characters except on EMAIL templates (200,000)', async () => {
    const core = buildCore();
    const sms = await rejection(create(core).execute(ORG_A, { name: 'Long', channel: 'SMS', body: 'a'.repeat(1_601) }));
    expect(sms.details['fieldErrors']).to.deep.equal({ body: ['must be at most 1600 characters for SMS'] });
    expect((await create(core).execute(ORG_A, { name: 'Long', channel: 'SMS', body: 'a'.repeat(1_600) })).status).to.equal('APPROVED');
    expect((await create(core).execute(ORG_A, { name: 'Long', channel: 'EMAIL', body: 'a'.repeat(200_000) })).status).to.equal('APPROVED');
    const email = await rejection(create(core).execute(ORG_A, { name: 'Huge', channel: 'EMAIL', body: 'a'.repeat(200_001) }));
    expect(email.details['fieldErrors']).to.have.property('body');
  });

  it('takes a subject on EMAIL templates, detecting its variables after the body\'s', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, {
      name: 'Receipt', channel: 'EMAIL', subject: 'Receipt {{ invoice }} for {{name}}', body: '<p>Dear {{name}}, thank you.</p>',
    });
    expect(created).to.deep.include({ subject: 'Receipt {{ invoice }} for {{name}}', variables: ['name', 'invoice'] });
  });

  it('refuses a subject on a non-EMAIL template but treats a blank one as none', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi', subject: 'Hello' }));
    expect(error.details['fieldErrors']).to.deep.equal({ subject: ['is only used by EMAIL templates'] });
    const created = await create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi', subject: ' ' });
    expect(created.subject).to.equal(null);
  });

  it('refuses a subject over 998 characters', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'EMAIL', body: 'Hi', subject: 's'.repeat(999) }));
    expect(error.details['fieldErrors']).to.deep.equal({ subject: ['must be at most 998 characters'] });
  });

  it('accepts a variables list naming exactly the placeholders, in any order and with repeats', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: '{{a}} {{b}} {{a}}', variables: ['b', 'a', 'b'] });
    expect(created.variables).to.deep.equal(['a', 'b']);
  });

  it('rejects a variables list that names an unused variable or leaves a placeholder out, naming both', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi {{name}}, code {{code}}', variables: ['name', 'amount'] }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    const [message] = (error.details['fieldErrors'] as Record<string, string[]>)['variables']!;
    expect(message).to.include('not used in body or subject: amount').and.include('placeholders not listed: code');
    expect(await core.storage.templates.list('org-a', 10)).to.deep.equal([]);
  });

  it('rejects variable names that cannot be placeholders', async () => {
    const core = buildCore();
    const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi', variables: ['1st name'] }));
    expect(error.details['fieldErrors']).to.have.property('variables');
  });

  it('stores the language as a canonical BCP 47 tag and refuses anything else', async () => {
    const core = buildCore();
    for (const [given, stored] of [['en-gh', 'en-GH'], ['ak', 'ak'], ['gaa', 'gaa'], ['fr-CI', 'fr-CI'], [' tw ', 'tw']] as const) {
      expect((await create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi', language: given })).language, given).to.equal(stored);
    }
    for (const language of ['english', 'e', 'en_GB', 'en-', '', 'x'.repeat(40)]) {
      const error = await rejection(create(core).execute(ORG_A, { name: 'x', channel: 'SMS', body: 'Hi', language }));
      expect(error.details['fieldErrors'], language).to.have.property('language');
    }
  });

  it('takes the organization and author from the scope, never from the body', async () => {
    const core = buildCore();
    const created = await create(core).execute(ORG_A, {
      name: 'x', channel: 'SMS', body: 'Hi', organizationId: 'org-b', status: 'APPROVED', category: 'MARKETING', createdByUserId: 'mallory',
    });
    const stored = await core.storage.templates.findById('org-a', created.id);
    expect(stored).to.deep.include({ organizationId: 'org-a', createdByUserId: 'user-a', status: 'PENDING_APPROVAL' });
  });
});
