import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { PreviewMessageCost } from '../../../core/use-cases/messaging/preview-message-cost.ts';
import { CreateTemplate } from '../../../core/use-cases/templates/create-template.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const ORG_A = { organizationId: 'org-a', userId: 'user-a' };
const ORG_B = { organizationId: 'org-b', userId: 'user-b' };

function preview(core: TestCore) {
  return new PreviewMessageCost({ storage: core.storage, pricing: core.storage.pricing });
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

describe('PreviewMessageCost', () => {
  it('prices a one-segment GSM-7 SMS to Ghana at GHS 0.03 and normalizes the recipient', async () => {
    const core = buildCore();
    const result = await preview(core).execute(ORG_A, { channel: 'SMS', to: '024 123 4567', body: 'Your code is 1234' });
    expect(result).to.deep.equal({
      channel: 'SMS', recipient: '+233241234567', country: 'GH', network: 'MTN', encoding: 'GSM-7', characters: 17, perSegment: 160, segments: 1,
      unit: 'segment', unitPrice: 0.03, price: 0.03, priceSource: 'PLATFORM', currency: 'GHS', subject: null, body: 'Your code is 1234',
    });
  });

  it('counts 161 GSM-7 characters as 2 segments of 153 (GHS 0.06)', async () => {
    const core = buildCore();
    const result = await preview(core).execute(ORG_A, { channel: 'SMS', to: '+233241234567', body: 'a'.repeat(161) });
    expect(result).to.include({ encoding: 'GSM-7', characters: 161, perSegment: 153, segments: 2, price: 0.06 });
  });

  it('switches to UCS-2 for a Twi letter or the cedi sign', async () => {
    const core = buildCore();
    for (const body of ['Mepa wo kyɛw, bra ha', 'Balance: ₵20.00']) {
      const result = await preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', body });
      expect(result, body).to.include({ encoding: 'UCS-2', characters: body.length, perSegment: 70, segments: 1, price: 0.03 });
    }
    const long = await preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', body: `${'a'.repeat(70)}ɛ` });
    expect(long).to.include({ encoding: 'UCS-2', characters: 71, perSegment: 67, segments: 2, price: 0.06 });
  });

  it('prices by the number\'s own country and per message on other channels', async () => {
    const core = buildCore();
    expect(await preview(core).execute(ORG_A, { channel: 'SMS', to: '+2348031234567', body: 'Hi' })).to.include({ country: 'NG', price: 0.1 });
    const whatsapp = await preview(core).execute(ORG_A, { channel: 'WHATSAPP', to: '0241234567', body: 'a'.repeat(500) });
    expect(whatsapp).to.include({ unit: 'message', segments: 1, encoding: null, characters: null, perSegment: null, price: 0.08 });
    const email = await preview(core).execute(ORG_A, { channel: 'EMAIL', to: 'Ama@Example.COM', subject: 'Hi', body: '<p>Hi</p>' });
    expect(email).to.include({ recipient: 'Ama@example.com', country: null, subject: 'Hi', price: 0.01 });
  });

  it('renders an approved template with the variables, escaping HTML only in email bodies', async () => {
    const core = buildCore();
    const sms = await new CreateTemplate(core).execute(ORG_A, { name: 'Greet', channel: 'SMS', body: 'Hi {{name}}' });
    const email = await new CreateTemplate(core).execute(ORG_A, { name: 'Mail', channel: 'EMAIL', subject: 'For {{name}}', body: '<p>Hi {{name}}</p>' });
    const name = 'Ama & <Kofi>';

    const text = await preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', templateId: sms.id, variables: { name } });
    const html = await preview(core).execute(ORG_A, { channel: 'EMAIL', to: 'ama@example.com', templateId: email.id, variables: { name } });

    expect(text.body).to.equal('Hi Ama & <Kofi>');
    expect(html).to.include({ subject: 'For Ama & <Kofi>', body: '<p>Hi Ama &amp; &lt;Kofi&gt;</p>' });
  });

  it('fails as a send would: missing variable, pending template, another organization\'s template', async () => {
    const core = buildCore();
    const approved = await new CreateTemplate(core).execute(ORG_A, { name: 'Greet', channel: 'SMS', body: 'Hi {{name}}' });
    const pending = await new CreateTemplate(core).execute(ORG_A, { name: 'Promo', channel: 'SMS', category: 'MARKETING', body: 'Sale' });

    const missing = await rejection(preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', templateId: approved.id }));
    expect(missing.code).to.equal('VALIDATION_ERROR');
    expect(missing.message).to.include('name');
    expect((await rejection(preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', templateId: pending.id }))).code).to.equal('TEMPLATE_NOT_APPROVED');
    const foreign = await rejection(preview(core).execute(ORG_B, { channel: 'SMS', to: '0241234567', templateId: approved.id, variables: { name: 'A' } }));
    expect(foreign.details['fieldErrors']).to.deep.equal({ templateId: ['template not found'] });
    const badPhone = await rejection(preview(core).execute(ORG_A, { channel: 'SMS', to: '12', body: 'Hi' }));
    expect(badPhone.details['fieldErrors']).to.have.property('to');
  });

  it('records, queues and charges nothing', async () => {
    const core = buildCore();
    await preview(core).execute(ORG_A, { channel: 'SMS', to: '0241234567', body: 'Hi', idempotencyKey: 'k-1', async: true });
    const { state } = core.storage;
    expect((await core.storage.messages.list('org-a', {}, 0, 100)).total).to.equal(0);
    expect({ messages: state.messages.size, jobs: state.jobs.length, ledger: state.ledger.length, idempotencyKeys: state.idempotency.size })
      .to.deep.equal({ messages: 0, jobs: 0, ledger: 0, idempotencyKeys: 0 });
  });
});
