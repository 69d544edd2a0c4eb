import { expect } from 'chai';
import { REDACTED, fieldChanges, isSecretField, redactSecrets } from '../../../core/domain/org-audit.ts';
import { RecordOrgAuditEvent, type OrgAuditContext } from '../../../core/use-cases/audit/record-org-audit-event.ts';
import { buildCore } from '../../support/build-core.ts';

describe('organization audit log: redaction and changed fields (core/domain/org-audit.ts)', () => {
  it('treats credentials, secrets, passwords, keys, tokens, passcodes and recovery codes as secrets by name', () => {
    for (const name of ['secret', 'signingSecret', 'previousSecret', 'password', 'newPassword', 'credentials', 'apiKey', 'api_key', 'key', 'token',
      'authToken', 'privateKey', 'passcode', 'totpSecret', 'recoveryCodes', 'code', 'subscriberHash', 'keyHash', 'clientSecret']) {
      expect(isSecretField(name), name).to.equal(true);
    }
    for (const name of ['name', 'url', 'events', 'channel', 'status', 'allowedCidrs', 'scopes', 'prefix', 'settings', 'codeLength', 'keyword']) {
      expect(isSecretField(name), name).to.equal(false);
    }
  });

  it('redacts secrets at every depth, inside arrays too, and bounds the depth', () => {
    const redacted = redactSecrets({ name: 'Arkesel', settings: { senderId: 'ACME', credentials: { apiKey: 'k' } }, hooks: [{ url: 'u', secret: 's' }],
      deep: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } }) as Record<string, any>;
    expect(redacted['settings']).to.deep.equal({ senderId: 'ACME', credentials: REDACTED });
    expect(redacted['hooks']).to.deep.equal([{ url: 'u', secret: REDACTED }]);
    expect(JSON.stringify(redacted)).not.to.include('"k"');
    expect(JSON.stringify(redacted['deep'])).to.include('[too deep]');
  });

  it('keeps only the fields that changed; a changed secret shows as redacted on both sides; bookkeeping fields are left out', () => {
    const before = { id: 'w1', url: 'https://a.example', events: ['x'], secret: 'old', isActive: true, updatedAt: '2026-01-01' };
    const after = { id: 'w1', url: 'https://b.example', events: ['x'], secret: 'new', isActive: true, updatedAt: '2026-02-01', description: 'added' };
    expect(fieldChanges(before, after)).to.deep.equal({
      url: { before: 'https://a.example', after: 'https://b.example' },
      secret: { before: REDACTED, after: REDACTED },
      description: { before: null, after: 'added' },
    });
    expect(fieldChanges(null, { key: 'nk_live_abc', name: 'CI' })).to.deep.equal({ key: { before: null, after: REDACTED }, name: { before: null, after: 'CI' } });
    expect(fieldChanges({ name: 'gone', password: 'p' }, null)).to.deep.equal({ name: { before: 'gone', after: null }, password: { before: REDACTED, after: null } });
  });

  it('redacts the fields a port knows to be secret beyond the common names', () => {
    expect(fieldChanges(null, { msisdnPin: '1234', sender: 'ACME' }, ['msisdnPin'])).to.deep.equal({
      msisdnPin: { before: null, after: REDACTED }, sender: { before: null, after: 'ACME' },
    });
  });
});

describe('RecordOrgAuditEvent', () => {
  const context = (overrides: Partial<OrgAuditContext>): OrgAuditContext => ({
    organizationId: 'org-1', userId: null, impersonatorId: null, apiKeyId: null, clientAddress: '198.51.100.7', requestId: 'r-1', ...overrides,
  });

  it('names the actor: the member with email, the API key with its name, the platform staff member behind an impersonation', async () => {
    const core = buildCore();
    const record = new RecordOrgAuditEvent({ storage: core.storage, clock: core.clock });
    await core.storage.users.insert({ id: 'u-1', email: 'ama@example.com', passwordHash: 'x', firstName: 'Ama', lastName: 'M', platformRole: null, createdAt: core.clock.now() });
    await core.storage.users.insert({ id: 'staff-1', email: 'ops@nkra.example', passwordHash: 'x', firstName: 'O', lastName: 'P', platformRole: 'PLATFORM_SUPER_ADMIN', createdAt: core.clock.now() });
    await core.storage.apiKeys.insert({ id: 'k-1', organizationId: 'org-1', name: 'CRM', prefix: 'nk_', keyHash: 'h', isSandbox: false, scopes: [], expiresAt: null,
      revokedAt: null, lastUsedAt: null, lastUsedIp: null, allowedCidrs: [], createdAt: core.clock.now() } as never);
    const event = { action: 'template.created' as const, targetType: 'template', targetId: 't-1', after: { name: 'Hi' } };
    expect((await record.execute(context({ userId: 'u-1' }), event)).actor).to.deep.equal({ type: 'member', userId: 'u-1', email: 'ama@example.com' });
    expect((await record.execute(context({ apiKeyId: 'k-1' }), event)).actor).to.deep.equal({ type: 'api_key', apiKeyId: 'k-1', name: 'CRM' });
    const staff = await record.execute(context({ userId: 'staff-1', impersonatorId: 'staff-1' }), event);
    expect(staff.actor).to.deep.equal({ type: 'platform_staff', userId: 'staff-1', email: 'ops@nkra.example' });
    expect(staff).to.include({ seq: 3, clientAddress: '198.51.100.7', requestId: 'r-1' });
    expect(staff.changes).to.deep.equal({ name: { before: null, after: 'Hi' } });
  });
});
