import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';
import type { Credentials } from '../support/api-client.ts';

interface Entry {
  id: string; seq: number; occurredAt: string; action: string; clientAddress: string | null; requestId: string | null;
  actor: { type: string; userId?: string; email?: string | null; apiKeyId?: string; name?: string | null };
  target: { type: string; id: string | null }; changes: Record<string, { before: unknown; after: unknown }>;
}

/** Issue 34, "The organization's audit log" (docs/audit-log.md). */
describe('HTTP: the organization\'s audit log (/audit-log)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  const storage = () => app.container.get(INFRA.storage);

  async function entries(auth: Credentials, query = ''): Promise<Entry[]> {
    const res = await app.api.get(`/audit-log${query}`, auth);
    expect(res.status, res.text).to.equal(200);
    return res.body.data.items as Entry[];
  }
  async function latest(auth: Credentials, action: string): Promise<Entry> {
    const [entry] = await entries(auth, `?action=${action}&limit=1`);
    expect(entry, `no ${action} entry`).to.not.equal(undefined);
    return entry!;
  }
  async function member(role: string) {
    const user = await registerUser(app.api, role.toLowerCase());
    await storage().memberships.insert({ id: randomUUID(), organizationId: owner.organizationId, userId: user.userId, role: role as never, createdAt: new Date() });
    return { token: user.token, organizationId: owner.organizationId, userId: user.userId, email: user.email };
  }

  before(async () => {
    app = await startTestApp({ webRoot: null });
    owner = await registerTenant(app.api, 'audit');
    other = await registerTenant(app.api, 'audit-other');
    await storage().wallets.update(owner.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
  });
  after(async () => { await app.close(); });

  it('records a template created by a member: actor id and email, client address, target, after values, request id', async () => {
    const res = await app.api.post('/templates', { name: 'Welcome', channel: 'SMS', body: 'Hello {{name}}', variables: ['name'] }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    const entry = await latest(owner.auth, 'template.created');
    expect(entry.actor).to.deep.equal({ type: 'member', userId: owner.userId, email: owner.email });
    expect(entry.clientAddress).to.equal('127.0.0.1');
    expect(entry.target).to.deep.equal({ type: 'template', id: res.body.data.id });
    expect(entry.changes['name']).to.deep.equal({ before: null, after: 'Welcome' });
    expect(entry.requestId).to.equal(res.headers.get('x-request-id'));
  });

  it('never records secrets: an API key\'s key, a webhook\'s secret, a vendor account\'s credentials', async () => {
    const key = await app.api.post('/api-keys', { name: 'CI key', scopes: ['messages:send'] }, owner.auth);
    expect(key.status, key.text).to.equal(201);
    const hook = await app.api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['message.status.updated'] }, owner.auth);
    expect(hook.status, hook.text).to.equal(201);
    const account = await app.api.post('/vendor-accounts', { name: 'own-arkesel', vendor: 'arkesel-sms', settings: { senderId: 'ACME' }, credentials: { apiKey: 'arkesel-secret-value-1' } }, owner.auth);
    expect(account.status, account.text).to.equal(201);
    const rotated = await app.api.post(`/webhook-endpoints/${hook.body.data.id}/rotate-secret`, {}, owner.auth);
    expect(rotated.status, rotated.text).to.equal(200);
    const secrets = [key.body.data.key as string, hook.body.data.secret as string, rotated.body.data.secret as string, 'arkesel-secret-value-1'].filter(Boolean);
    expect(secrets.length).to.be.at.least(3);
    const all = await app.api.get('/audit-log?limit=200', owner.auth);
    for (const secret of secrets) expect(all.text).not.to.include(secret);
    expect((await latest(owner.auth, 'api_key.created')).changes['key']).to.deep.equal({ before: null, after: '[redacted]' });
    expect((await latest(owner.auth, 'api_key.created')).changes['name']).to.deep.equal({ before: null, after: 'CI key' });
    expect((await latest(owner.auth, 'webhook.created')).changes['secret']?.after ?? '[redacted]').to.equal('[redacted]');
    expect((await latest(owner.auth, 'webhook.secret_rotated')).changes['secret']).to.deep.equal({ before: null, after: '[redacted]' });
    const patched = await app.api.patch(`/vendor-accounts/${account.body.data.id}`, { credentials: { apiKey: 'arkesel-secret-value-2' } }, owner.auth);
    expect(patched.status, patched.text).to.equal(200);
    secrets.push('arkesel-secret-value-2');
    expect((await latest(owner.auth, 'vendor_account.created')).target.id).to.equal(account.body.data.id);
    expect((await latest(owner.auth, 'vendor_account.updated')).changes['credentials']).to.deep.equal({ before: null, after: '[redacted]' });
    const exported = await app.api.get('/audit-log/export', owner.auth);
    for (const secret of secrets) expect(exported.text).not.to.include(secret);
  });

  it('records only the changed fields of an update, before and after (webhook URL, API key revoked)', async () => {
    const hook = await app.api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/first', events: ['message.status.updated'] }, owner.auth);
    const patched = await app.api.patch(`/webhook-endpoints/${hook.body.data.id}`, { url: 'http://127.0.0.1:9/second' }, owner.auth);
    expect(patched.status, patched.text).to.equal(200);
    const entry = await latest(owner.auth, 'webhook.updated');
    expect(entry.target).to.deep.equal({ type: 'webhook', id: hook.body.data.id });
    expect(entry.changes['url']).to.deep.equal({ before: 'http://127.0.0.1:9/first', after: 'http://127.0.0.1:9/second' });
    expect(entry.changes).not.to.have.property('events');
    const key = await app.api.post('/api-keys', { name: 'Short-lived' }, owner.auth);
    expect((await app.api.delete(`/api-keys/${key.body.data.id}`, owner.auth)).status).to.be.oneOf([200, 204]);
    const revoked = await latest(owner.auth, 'api_key.revoked');
    expect(revoked.target.id).to.equal(key.body.data.id);
    expect(revoked.changes['isActive'] ?? revoked.changes['revokedAt']).to.not.equal(undefined);
  });

  it('records sends from the dashboard but not the same send made with an API key', async () => {
    const key = (await app.api.post('/api-keys', { name: 'Sender', scopes: ['messages:send'], isSandbox: true }, owner.auth)).body.data.key as string;
    const before = (await entries(owner.auth, '?action=message.sent_from_dashboard')).length;
    const byKey = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'From the integration' }, { apiKey: key });
    expect(byKey.status, byKey.text).to.be.oneOf([201, 202]);
    expect(await entries(owner.auth, '?action=message.sent_from_dashboard')).to.have.length(before);
    const byMember = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'From the dashboard' }, owner.auth);
    expect(byMember.status, byMember.text).to.be.oneOf([201, 202]);
    const entry = await latest(owner.auth, 'message.sent_from_dashboard');
    expect(entry.target).to.deep.equal({ type: 'message', id: byMember.body.data.id });
    expect(entry.changes['channel']).to.deep.equal({ before: null, after: 'SMS' });
  });

  it('records a member invited with the role granted, and an organization update with before and after', async () => {
    const invitee = await registerUser(app.api, 'invitee');
    const invited = await app.api.post('/organizations/invite', { email: invitee.email, role: 'DEVELOPER' }, owner.auth);
    expect(invited.status, invited.text).to.equal(201);
    const entry = await latest(owner.auth, 'member.invited');
    expect(entry.target).to.deep.equal({ type: 'member', id: invitee.userId });
    expect(entry.changes['role']).to.deep.equal({ before: null, after: 'DEVELOPER' });
    expect((await app.api.patch('/organizations/current', { industry: 'Logistics' }, owner.auth)).status).to.equal(200);
    const updated = await latest(owner.auth, 'organization.updated');
    expect(updated.changes['industry']?.after).to.equal('Logistics');
    expect(Object.keys(updated.changes)).to.not.include('name');
  });

  it('records an API key\'s change (consent) with the key as the actor', async () => {
    const key = await app.api.post('/api-keys', { name: 'CRM sync', scopes: ['contacts:write', 'contacts:read'] }, owner.auth);
    expect(key.status, key.text).to.equal(201);
    const contact = await app.api.post('/contacts', { phone: '+233241110000', firstName: 'Esi' }, owner.auth);
    expect(contact.status, contact.text).to.equal(201);
    const res = await app.api.put(`/contacts/${contact.body.data.id}/preferences`, { preferences: [{ category: 'MARKETING', channel: 'SMS', optedIn: false }] }, { apiKey: key.body.data.key });
    expect(res.status, res.text).to.equal(200);
    const entry = await latest(owner.auth, 'consent.changed');
    expect(entry.actor).to.deep.equal({ type: 'api_key', apiKeyId: key.body.data.id, name: 'CRM sync' });
    expect(entry.target).to.deep.equal({ type: 'contact', id: contact.body.data.id });
    expect(Object.keys(entry.changes)).to.not.have.length(0);
  });

  it('records impersonation by platform staff: started, each change made as the staff member, ended', async () => {
    const admin = await registerUser(app.api, 'staff');
    await storage().users.setPlatformRole(admin.userId, 'PLATFORM_SUPER_ADMIN');
    const started = await app.api.post(`/admin/tenants/${owner.organizationId}/impersonate`, {}, { token: admin.token });
    expect(started.status, started.text).to.equal(200);
    const as = { token: started.body.data.token as string, organizationId: owner.organizationId };
    expect((await app.api.post('/templates', { name: 'Staff fix', channel: 'SMS', body: 'Hi' }, as)).status).to.equal(201);
    expect((await app.api.post('/admin/exit-impersonation', {}, { token: as.token })).status).to.equal(200);
    const staff = { type: 'platform_staff', userId: admin.userId, email: admin.email };
    const [ended, made, begun] = await entries(owner.auth, '?limit=3');
    expect([begun!.action, made!.action, ended!.action]).to.deep.equal(['impersonation.started', 'template.created', 'impersonation.ended']);
    for (const e of [begun!, made!, ended!]) expect(e.actor).to.deep.equal(staff);
    expect(begun!.target).to.deep.equal({ type: 'organization', id: owner.organizationId });
    expect(JSON.stringify(begun)).not.to.include(as.token);
  });

  it('filters by actor, action, target and time; pages newest first with a cursor; rejects bad filters with VALIDATION_ERROR', async () => {
    const admin = await member('TENANT_ADMIN');
    for (const name of ['A', 'B', 'C']) expect((await app.api.post('/templates', { name: `Paged ${name}`, channel: 'SMS', body: 'Hi' }, admin)).status).to.equal(201);
    const mine = await entries(owner.auth, `?actorId=${admin.userId}`);
    expect(mine.map((e) => e.changes['name']?.after)).to.deep.equal(['Paged C', 'Paged B', 'Paged A']);
    const first = await app.api.get(`/audit-log?actorId=${admin.userId}&limit=2`, owner.auth);
    expect(first.body.data.items.map((e: Entry) => e.changes['name']?.after)).to.deep.equal(['Paged C', 'Paged B']);
    const second = await app.api.get(`/audit-log?actorId=${admin.userId}&limit=2&cursor=${first.body.data.nextCursor}`, owner.auth);
    expect(second.body.data.items.map((e: Entry) => e.changes['name']?.after)).to.deep.equal(['Paged A']);
    expect(second.body.data.nextCursor).to.equal(null);
    const target = mine[1]!.target;
    expect((await entries(owner.auth, `?targetType=template&targetId=${target.id}`)).map((e) => e.id)).to.deep.equal([mine[1]!.id]);
    const from = encodeURIComponent(mine[1]!.occurredAt);
    expect((await entries(owner.auth, `?actorId=${admin.userId}&from=${from}`)).length).to.be.within(1, 2);
    expect(await entries(owner.auth, `?actorId=${admin.userId}&to=${encodeURIComponent('2020-01-01T00:00:00Z')}`)).to.deep.equal([]);
    for (const bad of ['?action=template.deleted_forever', '?limit=0', '?limit=201', '?cursor=nonsense', '?from=yesterday',
      '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z']) {
      const res = await app.api.get(`/audit-log${bad}`, owner.auth);
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code, bad).to.equal('VALIDATION_ERROR');
    }
  });

  it('is for owners and admins only, never API keys, and shows each organization only its own entries', async () => {
    for (const role of ['VIEWER', 'DEVELOPER', 'CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER']) {
      const who = await member(role);
      for (const path of ['/audit-log', '/audit-log/export', '/audit-log/verify']) {
        const res = await app.api.get(path, who);
        expect(res.status, `${role} ${path}`).to.equal(403);
        expect(res.body.error.code).to.equal('FORBIDDEN');
      }
    }
    expect((await app.api.get('/audit-log', await member('TENANT_ADMIN'))).status).to.equal(200);
    const key = (await app.api.post('/api-keys', { name: 'No audit' }, owner.auth)).body.data.key as string;
    expect((await app.api.get('/audit-log', { apiKey: key })).status).to.equal(401);
    expect((await app.api.post('/templates', { name: 'Other org', channel: 'SMS', body: 'Hi' }, other.auth)).status).to.equal(201);
    const theirs = await entries(other.auth, '?limit=200');
    expect(theirs.map((e) => e.changes['name']?.after)).to.include('Other org');
    expect(theirs.every((e) => e.actor.userId === other.userId)).to.equal(true);
    // Another organization's id in the header is refused (not a member), never answered with its entries.
    expect((await app.api.get('/audit-log', { token: owner.token, organizationId: other.organizationId })).status).to.equal(403);
  });

  it('exports the matching entries as NDJSON, and the export is itself recorded', async () => {
    const res = await app.api.get('/audit-log/export?action=template.created', owner.auth);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).to.match(/attachment; filename="audit-log-\d{8}-\d{6}Z\.ndjson"/);
    expect(res.headers.get('x-export-truncated')).to.equal('false');
    const lines = res.text.trim().split('\n').map((l) => JSON.parse(l) as Entry);
    expect(lines.length).to.be.at.least(3);
    expect(lines.every((e) => e.action === 'template.created')).to.equal(true);
    expect(lines.map((e) => e.seq)).to.deep.equal([...lines.map((e) => e.seq)].sort((a, b) => b - a));
    const recorded = await latest(owner.auth, 'export.created');
    expect(recorded.target).to.deep.equal({ type: 'audit_log', id: null });
    expect(recorded.changes['filters']).to.deep.equal({ before: null, after: { action: 'template.created' } });
    expect((await app.api.get('/audit-log/export?from=nope', owner.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    const logs = await app.api.get('/delivery-logs/export', owner.auth);
    expect(logs.status).to.equal(200);
    expect((await latest(owner.auth, 'export.created')).target).to.deep.equal({ type: 'delivery_logs', id: null });
  });

  it('keeps one unbroken chain when members make changes at the same time', async () => {
    const admin = await member('TENANT_ADMIN');
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      app.api.post('/templates', { name: `Burst ${i}`, channel: 'SMS', body: 'Hi' }, i % 2 ? admin : owner.auth)));
    expect(made.map((r) => r.status)).to.deep.equal(made.map(() => 201));
    const listed = await entries(owner.auth, '?limit=200');
    const seqs = listed.map((e) => e.seq);
    expect(new Set(seqs).size).to.equal(seqs.length);
    expect(seqs).to.deep.equal(Array.from({ length: seqs.length }, (_, i) => seqs[0]! - i));
    expect((await app.api.get('/audit-log/verify', owner.auth)).body.data).to.include({ valid: true });
  });

  it('verifies the chain, and reports the first broken link once a row is altered in the database', async () => {
    const ok = await app.api.get('/audit-log/verify', owner.auth);
    expect(ok.status).to.equal(200);
    expect(ok.body.data).to.include({ valid: true, brokenAt: null, firstSeq: 1, complete: true });
    expect(ok.body.data.checked).to.equal(ok.body.data.lastSeq);
    const infra = app.container.get(INFRA.database);
    const [victim] = await entries(owner.auth, '?action=template.created&limit=1');
    await infra.em().execute('alter table org_audit_log disable trigger org_audit_log_append_only');
    try {
      await infra.em().execute(`update org_audit_log set client_address = '203.0.113.9' where id = ?`, [victim!.id]);
    } finally { await infra.em().execute('alter table org_audit_log enable trigger org_audit_log_append_only'); }
    const broken = await app.api.get('/audit-log/verify', owner.auth);
    expect(broken.body.data).to.deep.include({ valid: false, brokenAt: { seq: victim!.seq, id: victim!.id, reason: 'hash_mismatch' } });
    // Other organizations' chains are untouched.
    expect((await app.api.get('/audit-log/verify', other.auth)).body.data.valid).to.equal(true);
  });
});
