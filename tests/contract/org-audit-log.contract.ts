import { expect } from 'chai';
import { GENESIS_HASH, REDACTED, type OrgAuditRecord } from '../../core/domain/org-audit.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, uniqueId } from './contract-fixtures.ts';

/** A record of `organizationId` at `seconds` after T0 by a member. */
export function anAuditRecord(organizationId: string, seconds: number, overrides: Partial<OrgAuditRecord> = {}): OrgAuditRecord {
  return {
    organizationId, occurredAt: at(seconds), actor: { type: 'member', userId: 'user-1', email: 'ama@example.com' }, clientAddress: '127.0.0.1',
    action: 'template.created', targetType: 'template', targetId: uniqueId('tpl'), changes: { name: { before: null, after: 'Welcome' } },
    requestId: 'req-1', ...overrides,
  };
}

/** The OrgAuditLogRepository contract (core/ports/org-audit-log.ts), run against every Storage. */
export function describeOrgAuditLogContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`OrgAuditLogRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('chains each organization\'s entries: seq 1, 2, 3 and each prevHash is the previous hash', async () => {
      const org = uniqueId('org');
      const first = await storage.orgAuditLog.append(anAuditRecord(org, 0));
      const second = await storage.orgAuditLog.append(anAuditRecord(org, 1, { action: 'api_key.revoked', targetType: 'api_key' }));
      expect(first).to.include({ seq: 1, prevHash: GENESIS_HASH });
      expect(second).to.include({ seq: 2, prevHash: first.hash });
      expect(first.hash).to.match(/^[0-9a-f]{64}$/);
      expect(second.hash).not.to.equal(first.hash);
      const listed = await storage.orgAuditLog.list(org, {}, 10);
      expect(listed.map((e) => e.seq)).to.deep.equal([2, 1]);
      expect(listed[1]).to.deep.equal(first);
      expect(await storage.orgAuditLog.verify(org, 1000)).to.deep.equal({ valid: true, checked: 2, firstSeq: 1, lastSeq: 2, brokenAt: null });
    });

    it('filters by actor, action, target and time, pages by seq, and never shows another organization\'s entries', async () => {
      const [org, other] = [uniqueId('org'), uniqueId('org')];
      await storage.orgAuditLog.append(anAuditRecord(org, 10, { targetId: 't-1' }));
      await storage.orgAuditLog.append(anAuditRecord(org, 20, { actor: { type: 'api_key', apiKeyId: 'key-1', name: 'ci' }, action: 'webhook.created', targetType: 'webhook', targetId: 'w-1' }));
      await storage.orgAuditLog.append(anAuditRecord(org, 30, { action: 'webhook.updated', targetType: 'webhook', targetId: 'w-1' }));
      await storage.orgAuditLog.append(anAuditRecord(other, 15, { actor: { type: 'api_key', apiKeyId: 'key-1', name: 'ci' } }));
      const seqs = async (q: Parameters<Storage['orgAuditLog']['list']>[1], limit = 10) => (await storage.orgAuditLog.list(org, q, limit)).map((e) => e.seq);
      expect(await seqs({ actorId: 'key-1' })).to.deep.equal([2]);
      expect(await seqs({ actorId: 'user-1' })).to.deep.equal([3, 1]);
      expect(await seqs({ action: 'webhook.updated' })).to.deep.equal([3]);
      expect(await seqs({ targetType: 'webhook', targetId: 'w-1' })).to.deep.equal([3, 2]);
      expect(await seqs({ from: at(20), to: at(30) })).to.deep.equal([2]);
      expect(await seqs({}, 2)).to.deep.equal([3, 2]);
      expect(await seqs({ beforeSeq: 2 })).to.deep.equal([1]);
      expect((await storage.orgAuditLog.list(other, {}, 10)).map((e) => e.organizationId)).to.deep.equal([other]);
    });

    it('keeps the values as given: actor, changes with redaction markers, client address, request id', async () => {
      const org = uniqueId('org');
      const record = anAuditRecord(org, 5, { actor: { type: 'platform_staff', userId: 'admin-1', email: null }, clientAddress: '2001:db8::1',
        changes: { secret: { before: REDACTED, after: REDACTED }, url: { before: 'https://a.example', after: 'https://b.example' }, events: { before: ['a'], after: ['a', 'b'] } } });
      const entry = await storage.orgAuditLog.append(record);
      const [stored] = await storage.orgAuditLog.list(org, {}, 1);
      expect(stored).to.deep.equal(entry);
      expect(stored).to.deep.include({ actor: record.actor, changes: record.changes, clientAddress: '2001:db8::1', requestId: 'req-1' });
    });

    it('never forks the chain under concurrent appends of one organization', async () => {
      const org = uniqueId('org');
      await Promise.all(Array.from({ length: 24 }, (_, i) => storage.orgAuditLog.append(anAuditRecord(org, i))));
      const entries = await storage.orgAuditLog.list(org, {}, 100);
      expect(entries.map((e) => e.seq)).to.deep.equal(Array.from({ length: 24 }, (_, i) => 24 - i));
      expect(new Set(entries.map((e) => e.prevHash)).size).to.equal(24);
      expect(await storage.orgAuditLog.verify(org, 1000)).to.include({ valid: true, checked: 24 });
    });

    it('retention removes only entries older than the cutoff, of that organization; the rest still verifies from the first kept entry', async () => {
      const [org, other] = [uniqueId('org'), uniqueId('org')];
      for (const s of [0, 100, 200, 300]) await storage.orgAuditLog.append(anAuditRecord(org, s));
      await storage.orgAuditLog.append(anAuditRecord(other, 0));
      expect(await storage.orgAuditLog.purgeOlderThan(org, at(150))).to.equal(2);
      expect(await storage.orgAuditLog.purgeOlderThan(org, at(150))).to.equal(0);
      expect((await storage.orgAuditLog.list(org, {}, 10)).map((e) => e.seq)).to.deep.equal([4, 3]);
      expect(await storage.orgAuditLog.verify(org, 1000)).to.deep.equal({ valid: true, checked: 2, firstSeq: 3, lastSeq: 4, brokenAt: null });
      expect(await storage.orgAuditLog.verify(other, 1000)).to.include({ valid: true, checked: 1 });
      const next = await storage.orgAuditLog.append(anAuditRecord(org, 400));
      expect(next.seq).to.equal(5);
    });

    it('verifies an organization without entries as valid and empty', async () => {
      expect(await storage.orgAuditLog.verify(uniqueId('org'), 1000)).to.deep.equal({ valid: true, checked: 0, firstSeq: null, lastSeq: null, brokenAt: null });
    });

    it('appends inside a transaction commit or roll back with it', async () => {
      const org = uniqueId('org');
      await storage.transaction(async (tx) => { await tx.orgAuditLog.append(anAuditRecord(org, 0)); });
      await storage.transaction(async (tx) => {
        await tx.orgAuditLog.append(anAuditRecord(org, 1));
        throw new Error('roll back');
      }).catch(() => undefined);
      const next = await storage.orgAuditLog.append(anAuditRecord(org, 2));
      expect(next.seq).to.equal(2);
      expect(await storage.orgAuditLog.verify(org, 1000)).to.include({ valid: true, checked: 2 });
    });
  });
}
