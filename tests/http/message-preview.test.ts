import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: POST /messages/preview (cost preview)', () => {
  let app: TestApp;
  let owner: TestTenant;
  let apiKey: string;

  async function createKey(body: Record<string, unknown>): Promise<string> {
    const res = await app.api.post('/api-keys', body, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data.key as string;
  }

  function preview(body: Record<string, unknown>, key = apiKey) {
    return app.api.post('/messages/preview', body, { apiKey: key });
  }

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'preview');
    apiKey = await createKey({ name: 'Preview' });
  });
  after(async () => { await app.close(); });

  it('answers 200 with the normalized recipient, GSM-7 encoding, segments and the seeded GH price (GHS 0.03)', async () => {
    const res = await preview({ channel: 'SMS', to: '024 123 4567', body: 'Your code is 1234' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      success: true,
      data: {
        channel: 'SMS', recipient: '+233241234567', country: 'GH', network: 'MTN', encoding: 'GSM-7', characters: 17, perSegment: 160, segments: 1,
        unit: 'segment', unitPrice: 0.03, price: 0.03, priceSource: 'PLATFORM', currency: 'GHS', subject: null, body: 'Your code is 1234',
      },
    });
  });

  it('counts 161 GSM-7 characters as 2 segments (GHS 0.06)', async () => {
    const res = await preview({ channel: 'SMS', to: '0241234567', body: 'a'.repeat(161) });
    expect(res.body.data).to.include({ encoding: 'GSM-7', characters: 161, perSegment: 153, segments: 2, price: 0.06 });
  });

  it('answers UCS-2 for a Twi letter (ɛ) or the cedi sign (₵)', async () => {
    for (const body of ['Yɛda wo ase', 'Balance ₵20']) {
      const res = await preview({ channel: 'SMS', to: '0241234567', body });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data, body).to.include({ encoding: 'UCS-2', characters: body.length, perSegment: 70, segments: 1 });
    }
  });

  it('works with a dashboard session too, rendering a template with its variables', async () => {
    const template = await app.api.post('/templates', { name: 'Greet', channel: 'SMS', body: 'Mema wo akye {{name}}' }, owner.auth);
    expect(template.status, template.text).to.equal(201);
    const res = await app.api.post('/messages/preview', {
      channel: 'SMS', to: '+233241234567', templateId: template.body.data.id, variables: { name: 'Ɔkomfo' },
    }, owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ body: 'Mema wo akye Ɔkomfo', encoding: 'UCS-2' });
  });

  it('records, queues and charges nothing, even for a live key on an empty wallet', async () => {
    const storage = app.container.get(INFRA.storage);
    const balance = (await storage.wallets.get(owner.organizationId))?.balance;
    const liveKey = await createKey({ name: 'Live', isSandbox: false });

    const res = await preview({ channel: 'SMS', to: '0241234567', body: 'Hello', idempotencyKey: 'preview-1', async: true }, liveKey);

    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.price).to.equal(0.03);
    expect((await storage.messages.list(owner.organizationId, {}, 0, 10)).total).to.equal(0);
    expect((await storage.wallets.get(owner.organizationId))?.balance).to.equal(balance);
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'Hello', idempotencyKey: 'preview-1' }, { apiKey });
    expect(sent.status, 'the preview did not claim the idempotency key').to.equal(201);
  });

  it('answers 400 VALIDATION_ERROR as a send would (bad phone), and 422 for a pending template', async () => {
    const bad = await preview({ channel: 'SMS', to: '12', body: 'Hi' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.fieldErrors).to.have.property('to');
    const pending = await app.api.post('/templates', { name: 'Promo', channel: 'SMS', category: 'MARKETING', body: 'Sale' }, owner.auth);
    const res = await preview({ channel: 'SMS', to: '0241234567', templateId: pending.body.data.id });
    expect(res.status).to.equal(422);
    expect(res.body.error.code).to.equal('TEMPLATE_NOT_APPROVED');
  });

  it('answers 403 for an API key without messages:send, and 401 without credentials', async () => {
    const readOnly = await createKey({ name: 'Read only', scopes: ['messages:read'] });
    const res = await preview({ channel: 'SMS', to: '0241234567', body: 'Hi' }, readOnly);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
    expect((await app.api.post('/messages/preview', { channel: 'SMS', to: '0241234567', body: 'Hi' })).status).to.equal(401);
  });
});
