import { expect } from 'chai';
import type { Verification } from '../../core/domain/verification.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, rejection, uniqueId } from './contract-fixtures.ts';

function aVerification(organizationId: string, overrides: Partial<Verification> = {}): Verification {
  return {
    id: uniqueId('ver'), organizationId, recipient: '+233241234567', country: 'GH', prefix: '+233241', channels: ['SMS', 'VOICE'], channelIndex: 0,
    status: 'PENDING', codeHash: 'a'.repeat(64), codeLength: 6, locale: 'en', template: null, expiresAt: at(600), fallbackAfterSeconds: 60,
    sendAttempts: 0, checkAttempts: 0, sends: [], lastSentAt: at(0), ipAddress: null, idempotencyKey: null, approvedAt: null, createdAt: at(0), updatedAt: at(0),
    ...overrides,
  };
}

/** The VerificationRepository contract (core/ports/verification-repository.ts), run against every Storage. */
export function describeVerificationRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`VerificationRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('round-trips a verification, finds it only in its organization, and keeps idempotency keys unique per organization', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const v = aVerification(org, { idempotencyKey: 'k1', template: 'Code {{code}}', ipAddress: '198.51.100.7' });
      await storage.verifications.insert(v);
      expect(await storage.verifications.findById(org, v.id)).to.deep.equal(v);
      expect(await storage.verifications.findById(other, v.id)).to.equal(null);
      expect((await storage.verifications.findByIdempotencyKey(org, 'k1'))?.id).to.equal(v.id);
      expect((await rejection(storage.verifications.insert(aVerification(org, { idempotencyKey: 'k1' })))).code).to.equal('CONFLICT');
      await storage.verifications.insert(aVerification(other, { idempotencyKey: 'k1' }));
      await storage.verifications.remove(org, v.id);
      expect(await storage.verifications.findById(org, v.id)).to.equal(null);
    });

    it('inserts several at once and supersedes several recipients at once', async () => {
      const org = await seedOrg();
      const [a, b] = [aVerification(org, { recipient: '+233241000001', sends: [{ channel: 'SMS', messageId: 'm-a', createdAt: at(1) }] }), aVerification(org, { recipient: '+233241000002' })];
      await storage.verifications.insertMany([a, b]);
      expect(await storage.verifications.findById(org, a.id)).to.deep.equal(a);
      expect(await storage.verifications.findById(org, b.id)).to.deep.equal(b);
      const [c, d] = [aVerification(org, { recipient: a.recipient }), aVerification(org, { recipient: b.recipient })];
      await storage.verifications.insertMany([c, d]);
      expect(await storage.verifications.supersedeMany([{ organizationId: org, recipient: a.recipient, exceptId: c.id }, { organizationId: org, recipient: b.recipient, exceptId: d.id }], at(2))).to.equal(2);
      expect((await storage.verifications.findById(org, a.id))?.status).to.equal('CANCELED');
      expect((await storage.verifications.findById(org, c.id))?.status).to.equal('PENDING');
      expect((await rejection(storage.verifications.insertMany([aVerification(org, { idempotencyKey: 'dup' }), aVerification(org, { idempotencyKey: 'dup' })]))).code).to.equal('CONFLICT');
    });

    it('expires PENDING verifications past their expiry once, oldest first, within the limit', async () => {
      const org = await seedOrg();
      const [old, older, fresh, done] = [aVerification(org, { expiresAt: at(-50) }), aVerification(org, { expiresAt: at(-100) }), aVerification(org, { expiresAt: at(1_000_000) }),
        aVerification(org, { expiresAt: at(-100), status: 'APPROVED' })];
      for (const v of [old, older, fresh, done]) await storage.verifications.insert(v);
      const mine = (rows: Array<{ id: string }>) => rows.map((r) => r.id).filter((id) => [old.id, older.id, fresh.id, done.id].includes(id));
      const swept = [...await storage.verifications.expireDue(at(0), 100_000)];
      expect(mine(swept)).to.include.members([old.id, older.id]).and.not.include(fresh.id).and.not.include(done.id);
      expect(mine(await storage.verifications.expireDue(at(0), 100_000))).to.deep.equal([]);
      expect((await storage.verifications.findById(org, old.id))?.status).to.equal('EXPIRED');
    });

    it('counts checks only while PENDING, unexpired and under the limit; approves once', async () => {
      const org = await seedOrg();
      const v = aVerification(org);
      await storage.verifications.insert(v);
      for (let i = 1; i <= 3; i++) expect((await storage.verifications.countCheck(org, v.id, 3, at(10)))?.checkAttempts).to.equal(i);
      expect(await storage.verifications.countCheck(org, v.id, 3, at(10))).to.equal(null);
      const fresh = aVerification(org);
      await storage.verifications.insert(fresh);
      expect(await storage.verifications.countCheck(org, fresh.id, 5, at(600))).to.equal(null); // expired at expiresAt
      expect((await storage.verifications.approve(org, fresh.id, at(20)))).to.include({ status: 'APPROVED' });
      expect(await storage.verifications.approve(org, fresh.id, at(21))).to.equal(null);
      expect(await storage.verifications.countCheck(org, fresh.id, 5, at(22))).to.equal(null);
      expect((await storage.verifications.findById(org, fresh.id))?.approvedAt?.getTime()).to.equal(at(20).getTime());
    });

    it('counts several verifications in one statement, only those still checkable', async () => {
      const org = await seedOrg();
      const [a, b, done] = [aVerification(org), aVerification(org, { checkAttempts: 2 }), aVerification(org, { status: 'APPROVED' })];
      for (const v of [a, b, done]) await storage.verifications.insert(v);
      const counted = await storage.verifications.countChecks([{ organizationId: org, id: a.id }, { organizationId: org, id: b.id }, { organizationId: org, id: done.id },
        { organizationId: 'another-org', id: a.id }], 3, at(1));
      expect(counted.map((v) => [v.id, v.checkAttempts]).sort()).to.deep.equal([[a.id, 1], [b.id, 3]].sort());
      expect(await storage.verifications.countChecks([{ organizationId: org, id: b.id }], 3, at(2))).to.deep.equal([]);
      expect(await storage.verifications.countChecks([], 3, at(2))).to.deep.equal([]);
    });

    it('records a send only on the send count it read, appending it with the new code', async () => {
      const org = await seedOrg();
      const v = aVerification(org);
      await storage.verifications.insert(v);
      const send = { channel: 'VOICE' as const, messageId: 'm-1', createdAt: at(5) };
      const saved = await storage.verifications.recordSend(org, v.id, 0, send, { codeHash: 'b'.repeat(64), channels: ['SMS', 'VOICE'], channelIndex: 1, sandboxCode: null }, at(5));
      expect(saved).to.include({ sendAttempts: 1, codeHash: 'b'.repeat(64), channelIndex: 1 });
      expect(saved?.channels).to.deep.equal(['SMS', 'VOICE']);
      expect(saved?.sandboxCode ?? null).to.equal(null);
      expect(saved?.sends).to.deep.equal([send]);
      expect(saved?.lastSentAt.getTime()).to.equal(at(5).getTime());
      expect(await storage.verifications.recordSend(org, v.id, 0, { ...send, messageId: 'm-2' }, { codeHash: 'c'.repeat(64), channels: ['SMS', 'VOICE'], channelIndex: 1, sandboxCode: null }, at(6))).to.equal(null);
    });

    it('lets one of several concurrent claims of a fallback send through, and none on a stale read', async () => {
      const org = await seedOrg();
      const v = aVerification(org, { sendAttempts: 1 });
      await storage.verifications.insert(v);
      const claims = await Promise.all(Array.from({ length: 5 }, () => storage.verifications.claimFallbackSend(org, v.id, 1, v.lastSentAt, at(30))));
      expect(claims.filter(Boolean)).to.have.length(1);
      expect(await storage.verifications.claimFallbackSend(org, v.id, 1, v.lastSentAt, at(31))).to.equal(false);
      expect(await storage.verifications.claimFallbackSend(org, v.id, 2, at(30), at(31))).to.equal(false);
      expect(await storage.verifications.claimFallbackSend('another-org', v.id, 1, at(30), at(31))).to.equal(false);
      expect(await storage.verifications.claimFallbackSend(org, v.id, 1, at(30), at(32))).to.equal(true);
    });

    it('finds a PENDING verification by its latest send\'s message only, and keeps a sandbox verification\'s code', async () => {
      const org = await seedOrg();
      const v = { ...aVerification(org), sandboxCode: '123456' };
      await storage.verifications.insert(v);
      expect((await storage.verifications.findById(org, v.id))?.sandboxCode).to.equal('123456');
      const first = { channel: 'SMS' as const, messageId: 'm-first', createdAt: at(5) };
      await storage.verifications.recordSend(org, v.id, 0, first, { codeHash: 'b'.repeat(64), channels: ['SMS'], channelIndex: 0, sandboxCode: '654321' }, at(5));
      expect((await storage.verifications.findPendingByLastMessage(org, 'm-first'))?.sandboxCode).to.equal('654321');
      expect(await storage.verifications.findPendingByLastMessage('another-org', 'm-first')).to.equal(null);
      await storage.verifications.recordSend(org, v.id, 1, { ...first, messageId: 'm-second' }, { codeHash: 'c'.repeat(64), channels: ['SMS'], channelIndex: 0, sandboxCode: null }, at(6));
      expect(await storage.verifications.findPendingByLastMessage(org, 'm-first')).to.equal(null);
      expect((await storage.verifications.findPendingByLastMessage(org, 'm-second'))?.id).to.equal(v.id);
      await storage.verifications.setStatus(org, v.id, ['PENDING'], 'CANCELED', at(7));
      expect(await storage.verifications.findPendingByLastMessage(org, 'm-second')).to.equal(null);
    });

    it('supersedes a recipient\'s other PENDING verifications, moves statuses conditionally, and lists newest first', async () => {
      const org = await seedOrg();
      const older = aVerification(org, { createdAt: at(0) });
      const newer = aVerification(org, { createdAt: at(10) });
      const elsewhere = aVerification(org, { recipient: '+233201111111', createdAt: at(5) });
      for (const v of [older, newer, elsewhere]) await storage.verifications.insert(v);
      expect((await storage.verifications.findLatestPending(org, '+233241234567'))?.id).to.equal(newer.id);
      expect(await storage.verifications.supersede(org, '+233241234567', newer.id, at(11))).to.equal(1);
      expect((await storage.verifications.findById(org, older.id))?.status).to.equal('CANCELED');
      expect(await storage.verifications.setStatus(org, older.id, ['PENDING'], 'EXPIRED', at(12))).to.equal(null);
      expect((await storage.verifications.setStatus(org, newer.id, ['PENDING'], 'MAX_ATTEMPTS', at(12)))?.status).to.equal('MAX_ATTEMPTS');
      expect((await storage.verifications.list(org, 10)).map((v) => v.id)).to.deep.equal([newer.id, elsewhere.id, older.id]);
      expect((await storage.verifications.list(org, 10, 'PENDING')).map((v) => v.id)).to.deep.equal([elsewhere.id]);
    });

    it('reports prefix statistics and conversion by first channel, country and hour; keeps settings per organization', async () => {
      const org = await seedOrg();
      await storage.verifications.insert(aVerification(org, { status: 'APPROVED', createdAt: at(0) }));
      await storage.verifications.insert(aVerification(org, { createdAt: at(60) }));
      await storage.verifications.insert(aVerification(org, { prefix: '+233277', createdAt: at(120) }));
      await storage.verifications.insert(aVerification(org, { recipient: 'a@b.co', country: null, prefix: null, channels: ['EMAIL'], status: 'APPROVED', createdAt: at(7200) }));
      expect(await storage.verifications.prefixStats(org, '+233241', at(-1))).to.deep.equal({ starts: 2, approvals: 1 });
      expect(await storage.verifications.prefixStats(org, '+233241', at(30))).to.deep.equal({ starts: 1, approvals: 0 });
      const rows = await storage.verifications.conversion(org, at(-1), 100);
      expect(rows.map((r) => ({ ...r, hour: r.hour.toISOString() }))).to.deep.equal([
        { channel: 'SMS', country: 'GH', hour: at(0).toISOString(), starts: 3, approvals: 1 },
        { channel: 'EMAIL', country: null, hour: at(7200).toISOString(), starts: 1, approvals: 1 },
      ]);
      expect(await storage.verifications.settings(org)).to.equal(null);
      const settings = { allowedCountries: ['GH', 'NG'], maxStartsPerRecipientPerHour: 3, maxStartsPerIpPerHour: 10, maxStartsPerHour: 50, codeLength: 8, expiresInSeconds: 300, prefixBlocking: false };
      await storage.verifications.saveSettings(org, settings, at(0));
      await storage.verifications.saveSettings(org, { ...settings, codeLength: 7 }, at(1));
      expect(await storage.verifications.settings(org)).to.deep.equal({ ...settings, codeLength: 7 });
    });
  });
}
