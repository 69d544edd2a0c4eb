import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Issue 19, docs/consent.md: marketing sends carry a signed opt-out link to a hosted page (no login, no
 * JavaScript) that records the opt-out (category suppression entry, contact.opted_out, audit); RFC 8058
 * one-click; the preference centre API; refused sends REJECTED RECIPIENT_OPTED_OUT and not charged.
 */
describe('HTTP: consent (opt-out links, hosted page, preference centre)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  const phone = (n: number) => `+2332440${String(n).padStart(5, '0')}`;
  const linkIn = (body: string) => /\/u\/([A-Za-z0-9_-]{16})(?![A-Za-z0-9_-])/.exec(body)?.[1] ?? null;

  before(async () => {
    app = await startTestApp();
    tenant = await registerTenant(app.api, 'consent');
    other = await registerTenant(app.api, 'consent-other');
    for (const t of [tenant, other]) {
      await app.container.get(INFRA.storage).wallets.update(t.organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    }
  });
  after(async () => { await app?.close(); });

  const send = (to: string, category?: string, body = 'Big sale this weekend at Kente Shop') =>
    app.api.post('/messages/send', { channel: 'SMS', to, body, ...(category ? { category } : {}), idempotencyKey: randomUUID() }, tenant.auth);
  const page = (token: string, init?: RequestInit) => fetch(`${app.url}/u/${token}`, { ...init, signal: AbortSignal.timeout(5_000) });
  const form = (token: string, fields: string) => page(token, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields });
  const events = async (kind: string) => (await app.container.get(INFRA.storage).outboundEvents.listRecent(tenant.organizationId, 200)).filter((e) => e.kind === kind);

  it('appends a short opt-out link to a MARKETING SMS, counts it in the price, and not to a TRANSACTIONAL one', async () => {
    const marketing = await send(phone(1), 'MARKETING');
    expect(marketing.status, marketing.text).to.equal(201);
    expect(marketing.body.data).to.include({ category: 'MARKETING', status: 'SENT' });
    const message = (await app.api.get(`/messages/${marketing.body.data.id}`, tenant.auth)).body.data;
    const token = linkIn(message.body ?? '') ?? linkIn(JSON.stringify(message));
    expect(token, JSON.stringify(message)).to.be.a('string');
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(1), body: 'Big sale this weekend at Kente Shop', category: 'MARKETING' }, tenant.auth);
    expect(preview.body.data.body).to.match(/\nOpt out: http:\/\/\S+\/u\/[A-Za-z0-9_-]{16}$/);
    expect(preview.body.data.characters).to.equal(preview.body.data.body.length);
    const plain = await send(phone(2));
    expect(plain.body.data.category).to.equal('TRANSACTIONAL');
    const plainPreview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(2), body: 'Your code is ready' }, tenant.auth);
    expect(plainPreview.body.data.body).to.equal('Your code is ready');
  });

  it('places the link where the body puts {{optOutUrl}} instead of appending it', async () => {
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(3), body: 'Sale! Stop: {{optOutUrl}} Thanks', category: 'MARKETING' }, tenant.auth);
    expect(preview.body.data.body).to.match(/^Sale! Stop: http:\/\/\S+\/u\/[A-Za-z0-9_-]{16} Thanks$/);
  });

  it('gives an exempt category a link only where its body places {{optOutUrl}} (never appended)', async () => {
    const placed = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(30), body: 'Receipt 12. Manage messages: {{optOutUrl}}', category: 'TRANSACTIONAL' }, tenant.auth);
    expect(placed.body.data.body).to.match(/^Receipt 12\. Manage messages: http:\/\/\S+\/u\/[A-Za-z0-9_-]{16}$/);
    const otp = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(30), body: 'Your code is 123456', category: 'OTP' }, tenant.auth);
    expect(otp.body.data.body).to.equal('Your code is 123456');
  });

  it('serves the hosted page for a real link (no login, no script), and 404 for a tampered or malformed token', async () => {
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(4), body: 'Promo', category: 'MARKETING' }, tenant.auth);
    const sent = await send(phone(4), 'MARKETING', 'Promo');
    expect(sent.status).to.equal(201);
    const token = linkIn(preview.body.data.body)!;
    const ok = await page(token);
    expect(ok.status).to.equal(200);
    expect(ok.headers.get('content-type')).to.match(/text\/html/);
    const html = await ok.text();
    expect(html).to.include('Org consent').and.to.include('name="viewport"').and.not.to.include('<script');
    expect(html).to.not.include(phone(4)); // masked
    const tampered = `${token.slice(0, 15)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await page(tampered)).status).to.equal(404);
    expect((await page('not-a-token')).status).to.equal(404);
    expect((await form(tampered, 'action=unsubscribe')).status).to.equal(404);
  });

  it('records an unsubscribe once (suppression entry, contact.opted_out, audit); the next marketing send is REJECTED and free, a transactional one still goes', async () => {
    const contact = await app.api.post('/contacts', { firstName: 'Ama', phone: phone(5) }, tenant.auth);
    expect(contact.status, contact.text).to.equal(201);
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(5), body: 'Promo', category: 'MARKETING' }, tenant.auth);
    await send(phone(5), 'MARKETING', 'Promo');
    const token = linkIn(preview.body.data.body)!;
    const first = await form(token, 'action=unsubscribe');
    expect(first.status).to.equal(200);
    expect(await first.text()).to.include('unsubscribed');
    const again = await form(token, 'action=unsubscribe'); // replayed
    expect(again.status).to.equal(200);
    const storage = app.container.get(INFRA.storage);
    const entries = await storage.suppressions.findPreferenceEntries(tenant.organizationId, [phone(5)]);
    expect(entries.map((e) => [e.category, e.channel])).to.deep.equal([['MARKETING', 'SMS']]);
    const audit = await storage.auditLog.list({ limit: 50, organizationId: tenant.organizationId });
    expect(audit.filter((a) => a.action === 'consent.preferences_changed')).to.have.length(1);
    const optedOut = await events('contact.opted_out');
    expect(optedOut).to.have.length(1);
    expect(optedOut[0]!.data).to.deep.include({ contactId: contact.body.data.id, source: 'link', phone: phone(5), preferences: [{ category: 'MARKETING', channel: 'SMS' }] });

    const balance = (await app.api.get('/billing/wallet', tenant.auth)).body.data.balance;
    const refused = await send(phone(5), 'MARKETING', 'Another promo');
    expect(refused.body.data).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_OPTED_OUT', cost: 0 });
    expect((await app.api.get('/billing/wallet', tenant.auth)).body.data.balance).to.equal(balance);
    const receipt = await send(phone(5), 'TRANSACTIONAL', 'Your receipt');
    expect(receipt.body.data.status).to.equal('SENT');
    const otp = await send(phone(5), 'OTP', 'Code 1234');
    expect(otp.body.data.status).to.equal('SENT');

    const prefs = await app.api.get(`/contacts/${contact.body.data.id}/preferences`, tenant.auth);
    expect(prefs.status).to.equal(200);
    expect(prefs.body.data.preferences).to.deep.include({ category: 'MARKETING', channel: 'SMS', optedIn: false });
    expect(prefs.body.data.preferences).to.deep.include({ category: 'MARKETING', channel: 'WHATSAPP', optedIn: true });
    expect(prefs.body.data.exemptCategories).to.deep.equal(['TRANSACTIONAL', 'OTP']);
  });

  it('honours RFC 8058 one-click (List-Unsubscribe=One-Click) and the preference form', async () => {
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: phone(6), body: 'Promo', category: 'MARKETING' }, tenant.auth);
    await send(phone(6), 'MARKETING', 'Promo');
    const token = linkIn(preview.body.data.body)!;
    const oneClick = await form(token, 'List-Unsubscribe=One-Click');
    expect(oneClick.status).to.equal(200);
    const storage = app.container.get(INFRA.storage);
    expect((await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone(6), 'MARKETING'))?.category).to.equal('MARKETING');
    // The form: keep MARKETING and REMINDER, leave the rest.
    const saved = await form(token, 'action=preferences&optedIn=MARKETING&optedIn=REMINDER&optedIn=NOT_A_CATEGORY');
    expect(saved.status).to.equal(200);
    expect(await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone(6), 'MARKETING')).to.equal(null);
    expect(await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone(6), 'REMINDER')).to.equal(null);
    expect((await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone(6), 'ALERT'))?.category).to.equal('ALERT');
    expect((await form(token, 'action=delete-everything')).status).to.equal(400);
  });

  it('keeps preferences per contact through the API: opt out, opt in, refuses exempt categories and channels without an address, other tenants 404', async () => {
    const contact = (await app.api.post('/contacts', { firstName: 'Kofi', phone: phone(7) }, tenant.auth)).body.data;
    const out = await app.api.put(`/contacts/${contact.id}/preferences`, { preferences: [{ category: 'REMINDER', channel: 'VOICE', optedIn: false }] }, tenant.auth);
    expect(out.status, out.text).to.equal(200);
    expect(out.body.data.preferences).to.deep.include({ category: 'REMINDER', channel: 'VOICE', optedIn: false });
    const refused = await app.api.post('/messages/send', { channel: 'VOICE', to: phone(7), body: 'Your appointment is tomorrow', category: 'REMINDER' }, tenant.auth);
    expect(refused.body.data, refused.text).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_OPTED_OUT' });
    const back = await app.api.put(`/contacts/${contact.id}/preferences`, { preferences: [{ category: 'REMINDER', channel: 'VOICE', optedIn: true }] }, tenant.auth);
    expect(back.body.data.preferences).to.deep.include({ category: 'REMINDER', channel: 'VOICE', optedIn: true });

    const exempt = await app.api.put(`/contacts/${contact.id}/preferences`, { preferences: [{ category: 'OTP', channel: 'SMS', optedIn: false }] }, tenant.auth);
    expect(exempt.status).to.equal(400);
    expect(exempt.body.error.code).to.equal('VALIDATION_ERROR');
    const noEmail = await app.api.put(`/contacts/${contact.id}/preferences`, { preferences: [{ category: 'MARKETING', channel: 'EMAIL', optedIn: false }] }, tenant.auth);
    expect(noEmail.status).to.equal(400);
    expect(noEmail.body.error.details.fieldErrors).to.have.property('preferences[0].channel');
    expect((await app.api.get(`/contacts/${contact.id}/preferences`, other.auth)).status).to.equal(404);
    expect((await app.api.put(`/contacts/${contact.id}/preferences`, { preferences: [{ category: 'MARKETING', channel: 'SMS', optedIn: false }] }, other.auth)).status).to.equal(404);
  });

  it('reports opt-out statistics of the organization only', async () => {
    const stats = await app.api.get('/consent/stats', tenant.auth);
    expect(stats.status).to.equal(200);
    expect(stats.body.data.optedOut).to.be.greaterThan(0);
    expect(stats.body.data.byCategory).to.deep.include({ category: 'MARKETING', channel: 'SMS', count: 1 });
    const theirs = await app.api.get('/consent/stats', other.auth);
    expect(theirs.body.data).to.include({ optedOut: 0, suppressed: 0 });
  });
});
