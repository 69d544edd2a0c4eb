import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../core/domain/roles.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /templates and sending with templates', () => {
  let app: TestApp;
  let owner: TestTenant;
  let ownerKey: string;
  let other: TestTenant;
  let otherKey: string;

  async function createKey(tenant: TestTenant): Promise<string> {
    const res = await app.api.post('/api-keys', { name: 'Templates test' }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data.key as string;
  }

  async function createTemplate(body: Record<string, unknown>, tenant = owner) {
    const res = await app.api.post('/templates', body, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; status: string; approvalRequestId?: string; variables: string[] };
  }

  /** Sends with the owner's sandbox API key and returns the response. */
  function send(body: Record<string, unknown>, apiKey = ownerKey) {
    return app.api.post('/messages/send', body, { apiKey });
  }

  /** The stored message (GET /messages/:id shows its subject and body). */
  async function sentMessage(id: string) {
    const res = await app.api.get(`/messages/${id}`, { apiKey: ownerKey });
    expect(res.status, res.text).to.equal(200);
    return res.body.data as { subject: string | null; body: string; templateId?: string };
  }

  async function memberWithRole(role: MemberRole) {
    const user = await registerUser(app.api, role.toLowerCase());
    await app.container.get(INFRA.storage).memberships.insert({
      id: randomUUID(), organizationId: owner.organizationId, userId: user.userId, role, createdAt: new Date(),
    });
    return { token: user.token, organizationId: owner.organizationId };
  }

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'templates');
    other = await registerTenant(app.api, 'templates-other');
    ownerKey = await createKey(owner);
    otherKey = await createKey(other);
  });
  after(async () => { await app.close(); });

  it('POST /templates answers 201 with an APPROVED template, spec defaults applied and variables detected', async () => {
    const res = await app.api.post('/templates', { name: 'Welcome', channel: 'SMS', body: 'Akwaaba {{ firstName }}!' }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    expect(res.body.success).to.equal(true);
    expect(res.body.data).to.deep.include({
      name: 'Welcome', channel: 'SMS', body: 'Akwaaba {{ firstName }}!', subject: null, countryCode: 'GH', language: 'en',
      category: 'TRANSACTIONAL', variables: ['firstName'], status: 'APPROVED', reviewComment: null,
    });
    expect(res.body.data.id).to.be.a('string');
    expect(res.body.data).to.not.have.property('approvalRequestId');
  });

  it('GET /templates lists newest first; GET /templates/:id returns one', async () => {
    const tenant = await registerTenant(app.api, 'templates-list');
    const first = await createTemplate({ name: 'First', channel: 'SMS', body: 'One' }, tenant);
    const second = await createTemplate({ name: 'Second', channel: 'EMAIL', subject: 'Two', body: '<b>Two</b>' }, tenant);
    const listed = await app.api.get('/templates', tenant.auth);
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.data.map((t: { id: string }) => t.id)).to.deep.equal([second.id, first.id]);

    const one = await app.api.get(`/templates/${second.id}`, tenant.auth);
    expect(one.status).to.equal(200);
    expect(one.body.data).to.deep.include({ id: second.id, name: 'Second', channel: 'EMAIL', subject: 'Two', status: 'APPROVED' });
  });

  it('GET /templates filters by channel and status and answers 400 VALIDATION_ERROR for an unknown filter', async () => {
    const tenant = await registerTenant(app.api, 'templates-filter');
    const sms = await createTemplate({ name: 'SMS', channel: 'SMS', body: 'Hi' }, tenant);
    const promo = await createTemplate({ name: 'Promo', channel: 'WHATSAPP', category: 'MARKETING', body: 'Sale' }, tenant);
    const ids = async (query: string) => (await app.api.get(`/templates${query}`, tenant.auth)).body.data.map((t: { id: string }) => t.id);
    expect(await ids('?channel=SMS')).to.deep.equal([sms.id]);
    expect(await ids('?status=PENDING_APPROVAL')).to.deep.equal([promo.id]);
    expect(await ids('?channel=WHATSAPP&status=APPROVED')).to.deep.equal([]);
    const bad = await app.api.get('/templates?status=LIVE', tenant.auth);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    expect(bad.body.error.details.fieldErrors).to.have.property('status');
  });

  it('POST /templates answers 400 VALIDATION_ERROR naming a missing name', async () => {
    const res = await app.api.post('/templates', { channel: 'SMS', body: 'Hi' }, owner.auth);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.deep.include({ code: 'VALIDATION_ERROR', details: { fieldErrors: { name: ['is required'] }, formErrors: [] } });
  });

  it('POST /templates answers 400 when the listed variables do not match the placeholders', async () => {
    const res = await app.api.post('/templates', { name: 'x', channel: 'SMS', body: 'Hi {{name}}', variables: ['name', 'code'] }, owner.auth);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.fieldErrors.variables[0]).to.include('code');
  });

  it('creates a MARKETING template PENDING_APPROVAL with a pending approval request for administrators', async () => {
    const created = await createTemplate({ name: 'Black Friday', channel: 'SMS', category: 'MARKETING', body: 'Hi {{name}}, 50% off' });
    expect(created.status).to.equal('PENDING_APPROVAL');
    expect(created.approvalRequestId).to.be.a('string');

    const approvals = app.container.get(INFRA.storage).approvals;
    const pending = await approvals.listPending((await approvals.countPending()) + 50);
    const request = pending.find((a) => a.id === created.approvalRequestId);
    expect(request).to.deep.include({ organizationId: owner.organizationId, kind: 'TEMPLATE', subjectId: created.id, status: 'PENDING', requestedByUserId: owner.userId });
    expect(request?.content).to.deep.include({ name: 'Black Friday', category: 'MARKETING', body: 'Hi {{name}}, 50% off' });
  });

  it('refuses to send with a pending template: 422 TEMPLATE_NOT_APPROVED, nothing recorded', async () => {
    const tenant = await registerTenant(app.api, 'templates-pending');
    const apiKey = await createKey(tenant);
    const pending = await createTemplate({ name: 'Loan', channel: 'SMS', category: 'FINTECH', body: 'Borrow GHS {{amount}} now' }, tenant);

    const res = await send({ channel: 'SMS', to: '0241234567', templateId: pending.id, variables: { amount: '500' } }, apiKey);

    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.code).to.equal('TEMPLATE_NOT_APPROVED');
    expect((await app.container.get(INFRA.storage).messages.list(tenant.organizationId, {}, 0, 10)).total).to.equal(0);
  });

  it('sends an APPROVED template rendered with the variables, inserting them verbatim in SMS', async () => {
    const template = await createTemplate({ name: 'OTP', channel: 'SMS', body: 'Hi {{name}}, your code is {{code}}' });
    const res = await send({ channel: 'SMS', to: '0241234501', templateId: template.id, variables: { name: 'Ama & <Kofi>', code: '4821' } });
    expect(res.status, res.text).to.equal(201);
    expect((await sentMessage(res.body.data.id)).body).to.equal('Hi Ama & <Kofi>, your code is 4821');
  });

  it('answers 400 VALIDATION_ERROR naming a missing variable', async () => {
    const template = await createTemplate({ name: 'Receipt', channel: 'SMS', body: 'Paid {{amount}} for {{invoice}}' });
    const res = await send({ channel: 'SMS', to: '0241234502', templateId: template.id, variables: { amount: 'GHS 20' } });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.fieldErrors.variables[0]).to.include('invoice');
  });

  it('answers 400 when the template is for another channel', async () => {
    const template = await createTemplate({ name: 'Mail', channel: 'EMAIL', subject: 'Hi', body: '<p>Hi</p>' });
    const res = await send({ channel: 'SMS', to: '0241234503', templateId: template.id });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.fieldErrors.templateId[0]).to.include('EMAIL');
  });

  it('uses an EMAIL template\'s subject as the fallback subject and escapes HTML in the values of the body', async () => {
    const template = await createTemplate({ name: 'Invoice', channel: 'EMAIL', subject: 'Invoice for {{name}}', body: '<p>Dear {{name}}</p>' });
    const variables = { name: 'Ama & <Kofi>' };

    const fallback = await send({ channel: 'EMAIL', to: 'ama@example.com', templateId: template.id, variables });
    expect(fallback.status, fallback.text).to.equal(201);
    expect(await sentMessage(fallback.body.data.id)).to.deep.include({ subject: 'Invoice for Ama & <Kofi>', body: '<p>Dear Ama &amp; &lt;Kofi&gt;</p>' });

    const given = await send({ channel: 'EMAIL', to: 'kofi@example.com', templateId: template.id, variables, subject: 'Your invoice' });
    expect(given.status, given.text).to.equal(201);
    expect((await sentMessage(given.body.data.id)).subject).to.equal('Your invoice');
  });

  it('keeps templates to their organization: 404 on GET, absent from the list, "template not found" on send', async () => {
    const mine = await createTemplate({ name: 'Mine', channel: 'SMS', body: 'Hello' });

    const get = await app.api.get(`/templates/${mine.id}`, other.auth);
    expect(get.status).to.equal(404);
    expect(get.body.error.code).to.equal('NOT_FOUND');
    expect((await app.api.get('/templates', other.auth)).body.data.map((t: { id: string }) => t.id)).to.not.include(mine.id);

    const sent = await send({ channel: 'SMS', to: '0241234504', templateId: mine.id }, otherKey);
    expect(sent.status).to.equal(400);
    expect(sent.body.error).to.deep.include({ code: 'VALIDATION_ERROR', details: { fieldErrors: { templateId: ['template not found'] }, formErrors: [] } });
  });

  it('answers 404 for an unknown template id', async () => {
    const res = await app.api.get(`/templates/${randomUUID()}`, owner.auth);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('NOT_FOUND');
  });

  it('refuses API keys on /templates (401) and lets a VIEWER read but not create (403)', async () => {
    expect((await app.api.get('/templates', { apiKey: ownerKey })).status).to.equal(401);
    expect((await app.api.post('/templates', { name: 'x', channel: 'SMS', body: 'Hi' }, { apiKey: ownerKey })).status).to.equal(401);
    const viewer = await memberWithRole('VIEWER');
    expect((await app.api.get('/templates', viewer)).status).to.equal(200);
    const create = await app.api.post('/templates', { name: 'x', channel: 'SMS', body: 'Hi' }, viewer);
    expect(create.status).to.equal(403);
    expect(create.body.error.code).to.equal('FORBIDDEN');
  });
});
