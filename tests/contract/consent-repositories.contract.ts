import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import type { Suppression } from '../../core/ports/suppression-repository.ts';
import { at, seedOrganization, uniqueId } from './contract-fixtures.ts';

function anEntry(organizationId: string, overrides: Partial<Suppression> = {}): Suppression {
  return { id: uniqueId('sup'), organizationId, phone: '+233241234567', email: null, channel: null, category: null, reason: null, createdAt: at(0), ...overrides };
}

/** Consent storage (issue 19, docs/consent.md): category opt-outs, opt-out links and send windows, run against every Storage. */
export function describeConsentRepositoriesContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Consent repositories contract (preferences, opt-out links, send windows): ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('matches a category opt-out only for that category and channel, never for TRANSACTIONAL or OTP; a whole-list entry first', async () => {
      const org = await seedOrganization(storage);
      const phone = '+233241000111';
      await storage.suppressions.insert(anEntry(org.id, { phone, channel: 'SMS', category: 'MARKETING' }));
      expect((await storage.suppressions.findMatch(org.id, 'SMS', phone, 'MARKETING'))?.category).to.equal('MARKETING');
      expect(await storage.suppressions.findMatch(org.id, 'WHATSAPP', phone, 'MARKETING')).to.equal(null);
      expect(await storage.suppressions.findMatch(org.id, 'SMS', phone, 'REMINDER')).to.equal(null);
      expect(await storage.suppressions.findMatch(org.id, 'SMS', phone)).to.equal(null);
      expect(await storage.suppressions.findMatch(org.id, 'SMS', phone, 'OTP')).to.equal(null);
      // The same category entry may exist beside a whole-list entry; the whole-list one answers first.
      const whole = anEntry(org.id, { phone });
      await storage.suppressions.insert(whole);
      expect((await storage.suppressions.findMatch(org.id, 'SMS', phone, 'MARKETING'))?.id).to.equal(whole.id);
      const [a, b, c] = await storage.suppressions.findMatches([
        { organizationId: org.id, channel: 'SMS', recipient: phone, category: 'OTP' },
        { organizationId: org.id, channel: 'EMAIL', recipient: 'x@example.com', category: 'MARKETING' },
        { organizationId: org.id, channel: 'VOICE', recipient: phone },
      ]);
      expect([a?.id, b, c?.id]).to.deep.equal([whole.id, null, whole.id]);
    });

    it('lists, removes and counts category opt-outs of one organization, case-insensitively for email', async () => {
      const [org, other] = [await seedOrganization(storage), await seedOrganization(storage)];
      await storage.suppressions.insert(anEntry(org.id, { phone: null, email: 'ama@example.com', channel: 'EMAIL', category: 'MARKETING', createdAt: at(10) }));
      await storage.suppressions.insert(anEntry(org.id, { phone: '+233241000222', channel: 'SMS', category: 'REMINDER', createdAt: at(20) }));
      await storage.suppressions.insert(anEntry(org.id, { phone: '+233241000333' }));
      await storage.suppressions.insert(anEntry(other.id, { phone: '+233241000222', channel: 'SMS', category: 'REMINDER' }));
      const found = await storage.suppressions.findPreferenceEntries(org.id, ['AMA@example.com', '+233241000222', '+233241000333']);
      expect(found.map((s) => [s.category, s.channel]).sort()).to.deep.equal([['MARKETING', 'EMAIL'], ['REMINDER', 'SMS']]);
      const stats = await storage.suppressions.preferenceStats(org.id, at(15));
      expect(stats.suppressed).to.equal(1);
      expect(stats.byCategory).to.have.deep.members([{ category: 'MARKETING', channel: 'EMAIL', count: 1 }, { category: 'REMINDER', channel: 'SMS', count: 1 }]);
      expect(stats.daily).to.deep.equal([{ day: at(20).toISOString().slice(0, 10), count: 1 }]);
      expect(await storage.suppressions.removePreference(org.id, 'EMAIL', 'Ama@Example.com', 'MARKETING')).to.equal(true);
      expect(await storage.suppressions.removePreference(org.id, 'EMAIL', 'ama@example.com', 'MARKETING')).to.equal(false);
      expect(await storage.suppressions.findPreferenceEntries(other.id, ['+233241000222'])).to.have.length(1);
    });

    it('records opt-out links once per token and finds them by token', async () => {
      const org = await seedOrganization(storage);
      const token = uniqueId('t').replace(/-/g, '').slice(0, 16);
      const link = { token, organizationId: org.id, channel: 'SMS' as const, recipient: '+233241000444', createdAt: at(1) };
      await storage.optOutLinks.insertMany([link, link]);
      await storage.optOutLinks.insertMany([{ ...link, createdAt: at(9) }]);
      expect(await storage.optOutLinks.findByToken(token)).to.deep.equal(link);
      expect(await storage.optOutLinks.findByToken('nope')).to.equal(null);
      await storage.optOutLinks.insertMany([]);
    });

    it('lists the seeded GH marketing window and replaces every window', async () => {
      const original = await storage.sendWindows.list();
      expect(original).to.deep.include({ country: 'GH', category: 'MARKETING', days: [1, 2, 3, 4, 5, 6], opensAt: '08:00', closesAt: '19:00' });
      try {
        const next = [{ country: 'NG', category: 'MARKETING' as const, days: [1, 2, 3, 4, 5], opensAt: '09:00', closesAt: '20:00' },
          { country: 'GH', category: 'REMINDER' as const, days: [0, 6], opensAt: '10:00', closesAt: '12:30' }];
        await storage.sendWindows.replaceAll(next, at(0));
        expect(await storage.sendWindows.list()).to.deep.equal([next[1], next[0]]);
      } finally {
        await storage.sendWindows.replaceAll(original, at(0));
      }
    });
  });
}
