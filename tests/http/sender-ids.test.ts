import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Sender IDs (issue 17, docs/sender-ids.md): a tenant requests one, a platform administrator approves
 * or rejects it through /admin/approvals, and sends may only go out under an approved one (a pending
 * one also in the sandbox); the organization's default sender applies when a send names none.
 */
describe('HTTP: /sender-ids (request, review, send only under approved ones)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let ops: TestTenant;
  let tenant: TestTenant;
  let other: TestTenant;
  let sandboxKey: string;
  const name = `Nk${randomUUID().slice(0, 6)}`.replace(/-/g, 'x');

  before(async () => {
    app = await startTestApp();
    ops = await registerTenant(app.api, 'sender-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    tenant = await registerTenant(app.api, 'sender-tenant');
    other = await registerTenant(app.api, 'sender-other');
    for (const t of [tenant, other]) {
      await app.container.get(INFRA.storage).wallets.update(t.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    }
    sandboxKey = (await app.api.post('/api-keys', { name: 'Sandbox' }, tenant.auth)).body.data.key as string;
  });
  after(async () => { await app?.close(); });

  const send = (auth: TestTenant['auth'] | { apiKey: string }, senderId?: string) =>
    app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'Your order is ready', ...(senderId ? { senderId } : {}) }, auth);
  const decide = async (senderIdId: string, verdict: 'approve' | 'reject', comment?: string) => {
    const senderId = ((await app.api.get('/sender-ids', tenant.auth)).body.data.items as Array<{ id: string; approvalId: string }>).find((s) => s.id === senderIdId)!;
    const pending = (await app.api.get('/admin/approvals', { token: ops.token })).body.data as Array<{ id: string; kind: string; subjectId: string }>;
    const listed = pending.find((a) => a.id === senderId.approvalId);
    if (listed) expect(listed).to.include({ kind: 'SENDER_ID', subjectId: senderIdId });
    return app.api.post(`/admin/approvals/${senderId.approvalId}/${verdict}`, comment ? { comment } : {}, { token: ops.token });
  };

  it('refuses a send under an unregistered sender ID with 422 SENDER_ID_NOT_APPROVED, charging nothing', async () => {
    const before = (await app.api.get('/billing/wallet', tenant.auth)).body.data.balance;
    const res = await send(tenant.auth, 'NOTMINE');
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.code).to.equal('SENDER_ID_NOT_APPROVED');
    expect(res.body.error.details).to.include({ senderId: 'NOTMINE', status: 'UNREGISTERED' });
    expect((await app.api.get('/billing/wallet', tenant.auth)).body.data.balance).to.equal(before);
  });

  it('validates a request: the networks\' name rules, purpose and sample message', async () => {
    for (const bad of ['AB', 'TWELVECHARSX', '12345', 'Nk_ra', 'Nk!ra']) {
      const res = await app.api.post('/sender-ids', { name: bad, purpose: 'Order updates', sampleMessage: 'Your order is ready' }, tenant.auth);
      expect(res.status, `${bad}: ${res.text}`).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }
    const missing = await app.api.post('/sender-ids', { name: 'NKRA' }, tenant.auth);
    expect(missing.status).to.equal(400);
    expect(missing.body.error.details.fieldErrors).to.have.keys('purpose', 'sampleMessage');
    // Spaces around the name are trimmed (docs/sender-ids.md); spaces inside are kept.
    const padded = await app.api.post('/sender-ids', { name: '  Trim Me ', purpose: 'Order updates', sampleMessage: 'Your order is ready' }, tenant.auth);
    expect(padded.status, padded.text).to.equal(201);
    expect(padded.body.data.name).to.equal('Trim Me');
    expect((await app.api.request('DELETE', `/sender-ids/${padded.body.data.id}`, undefined, tenant.auth)).status).to.equal(200);
  });

  it('records a request as PENDING with an approval; live sends refuse it, sandbox sends may use it', async () => {
    const created = await app.api.post('/sender-ids', { name, purpose: 'Order updates', sampleMessage: 'Your order is ready', networks: ['MTN', 'TELECEL'] }, tenant.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data).to.include({ name, status: 'PENDING' });
    expect(created.body.data.networks).to.deep.equal(['MTN', 'TELECEL']);
    const again = await app.api.post('/sender-ids', { name: name.toUpperCase(), purpose: 'x', sampleMessage: 'y' }, tenant.auth);
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('SENDER_ID_EXISTS');

    const live = await send(tenant.auth, name);
    expect(live.status).to.equal(422);
    expect(live.body.error.details).to.include({ status: 'PENDING' });
    const sandbox = await send({ apiKey: sandboxKey }, name.toLowerCase());
    expect(sandbox.status, sandbox.text).to.equal(201);
    expect((await app.api.get(`/messages/${sandbox.body.data.id}`, tenant.auth)).body.data.senderId ?? name).to.equal(name);

    const list = await app.api.get('/sender-ids', tenant.auth);
    expect(list.body.data.items.map((s: { name: string }) => s.name)).to.include(name);
    expect((await app.api.get('/sender-ids', other.auth)).body.data.items).to.deep.equal([]);
  });

  it('after approval, sends go out under the registered spelling; the default sender applies when a send names none', async () => {
    const [mine] = (await app.api.get('/sender-ids', tenant.auth)).body.data.items as Array<{ id: string }>;
    expect((await decide(mine!.id, 'approve')).status).to.equal(200);
    expect((await app.api.get('/sender-ids', tenant.auth)).body.data.items[0]).to.include({ status: 'APPROVED' });

    const sent = await send(tenant.auth, name.toLowerCase());
    expect(sent.status, sent.text).to.equal(201);
    const stored = await app.container.get(INFRA.storage).messages.findById(tenant.organizationId, sent.body.data.id);
    expect(stored?.senderId).to.equal(name);

    // Another organization cannot use it.
    const foreign = await send(other.auth, name);
    expect(foreign.status).to.equal(422);

    const unapprovedDefault = await app.api.request('PATCH', '/organizations/current', { defaultSenderId: 'NOTMINE' }, tenant.auth);
    expect(unapprovedDefault.status).to.equal(422);
    expect(unapprovedDefault.body.error.code).to.equal('SENDER_ID_NOT_APPROVED');
    const setDefault = await app.api.request('PATCH', '/organizations/current', { defaultSenderId: name.toLowerCase() }, tenant.auth);
    expect(setDefault.status, setDefault.text).to.equal(200);
    expect(setDefault.body.data.defaultSenderId).to.equal(name);
    const plain = await send(tenant.auth);
    const plainStored = await app.container.get(INFRA.storage).messages.findById(tenant.organizationId, plain.body.data.id);
    expect(plainStored?.senderId).to.equal(name);
  });

  it('a bulk request naming an unapproved sender ID is refused whole, naming the item', async () => {
    const res = await app.api.post('/messages/bulk', { messages: [
      { channel: 'SMS', to: '+233241234567', body: 'One', senderId: name },
      { channel: 'SMS', to: '+233241234568', body: 'Two', senderId: 'Stranger' },
    ] }, tenant.auth);
    expect(res.status, res.text).to.equal(422);
    expect(res.body.error.details).to.include({ senderId: 'Stranger', index: 1 });
  });

  it('a rejected one is refused with its status and can be resubmitted; deleting the default clears it', async () => {
    const second = await app.api.post('/sender-ids', { name: 'Promo Desk', purpose: 'Promotions', sampleMessage: 'Big sale today' }, tenant.auth);
    expect((await decide(second.body.data.id, 'reject', 'Promotional content needs the STOP wording')).status).to.equal(200);
    const refused = await send(tenant.auth, 'Promo Desk');
    expect(refused.body.error.details).to.include({ status: 'REJECTED' });
    const resubmitted = await app.api.post('/sender-ids', { name: 'promo desk', purpose: 'Promotions', sampleMessage: 'Big sale today. STOP to opt out' }, tenant.auth);
    expect(resubmitted.status, resubmitted.text).to.equal(201);
    expect(resubmitted.body.data).to.include({ id: second.body.data.id, name: 'Promo Desk', status: 'PENDING', reviewComment: null });

    const [approved] = ((await app.api.get('/sender-ids', tenant.auth)).body.data.items as Array<{ id: string; name: string }>).filter((s) => s.name === name);
    const deleted = await app.api.request('DELETE', `/sender-ids/${approved!.id}`, undefined, tenant.auth);
    expect(deleted.body.data).to.include({ deleted: true, defaultCleared: true });
    expect((await app.api.get('/organizations/current', tenant.auth)).body.data.defaultSenderId).to.equal(null);
    expect((await send(tenant.auth, name)).status).to.equal(422);
    expect((await app.api.request('DELETE', `/sender-ids/${approved!.id}`, undefined, tenant.auth)).status).to.equal(404);
  });
});
