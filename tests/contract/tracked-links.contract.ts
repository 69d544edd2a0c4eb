import { expect } from 'chai';
import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { Storage } from '../../core/ports/storage.ts';
import type { TrackedLink } from '../../core/ports/tracked-link-repository.ts';
import { RandomLinkCodes } from '../../adapters/security/random-link-codes.ts';
import { NO_PROGRESS } from '../../core/domain/campaign-progress.ts';
import { aMessage, at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

const codes = new RandomLinkCodes();

/** The TrackedLinkRepository and LinkSettingsRepository contracts (core/ports/), run against every Storage. */
export function describeTrackedLinksContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`TrackedLinkRepository and LinkSettingsRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    const aLink = (organizationId: string, overrides: Partial<TrackedLink> = {}): TrackedLink => ({
      code: codes.next(), organizationId, messageId: uniqueId('msg'), templateId: null, url: 'https://shop.example.com.gh/offer?x=1&y=2',
      createdAt: at(0), expiresAt: at(86_400), ...overrides,
    });

    it('finds a recorded link by its code, whichever organization asks, and nothing for an unknown code', async () => {
      const org = await seedOrganization(storage);
      const link = aLink(org.id, { templateId: 'tpl-1', expiresAt: null });
      await storage.transaction((tx) => tx.trackedLinks.insertMany([link, aLink(org.id)]));
      expect(await storage.trackedLinks.findByCode(link.code)).to.deep.equal(link);
      expect(await storage.trackedLinks.findByCode(codes.next())).to.equal(null);
      const many = await storage.trackedLinks.findManyByCodes([link.code, codes.next(), link.code]);
      expect(many).to.deep.equal([link]);
      expect(await storage.trackedLinks.findManyByCodes([])).to.deep.equal([]);
    });

    it('purges expired links in bounded batches and keeps the others', async () => {
      const org = await seedOrganization(storage);
      const old = [aLink(org.id, { expiresAt: at(-20) }), aLink(org.id, { expiresAt: at(-10) })];
      const kept = [aLink(org.id, { expiresAt: at(1_000_000) }), aLink(org.id, { expiresAt: null })];
      await storage.trackedLinks.insertMany([...old, ...kept]);
      expect(await storage.trackedLinks.purgeExpired(at(0), 1)).to.equal(1);
      await storage.trackedLinks.purgeExpired(at(0), 1_000);
      for (const l of old) expect(await storage.trackedLinks.findByCode(l.code)).to.equal(null);
      for (const l of kept) expect(await storage.trackedLinks.findByCode(l.code)).to.not.equal(null);
    });

    it('adds clicks in one call, reports only the links clicked for the first time, and drops unknown codes', async () => {
      const org = await seedOrganization(storage);
      const [a, b] = [aLink(org.id), aLink(org.id)];
      await storage.trackedLinks.insertMany([a, b]);
      const first = await storage.trackedLinks.addClicks([
        { code: a.code, clicks: 3, uniqueClicks: 2, firstAt: at(10) }, { code: codes.next(), clicks: 1, uniqueClicks: 1, firstAt: at(10) }]);
      expect(first).to.deep.equal([{ code: a.code, organizationId: org.id, messageId: a.messageId, templateId: null, url: a.url, clickedAt: at(10) }]);
      const again = await storage.trackedLinks.addClicks([{ code: a.code, clicks: 2, uniqueClicks: 1, firstAt: at(20) }, { code: b.code, clicks: 1, uniqueClicks: 1, firstAt: at(30) }]);
      expect(again.map((f) => f.code)).to.deep.equal([b.code]);
      const listed = await storage.trackedLinks.listForMessage(org.id, a.messageId);
      expect(listed.map((l) => [l.clicks, l.uniqueClicks, l.firstClickedAt])).to.deep.equal([[5, 3, at(10)]]); // the first click's time stays
      expect(await storage.trackedLinks.listForMessage((await seedOrganization(storage)).id, a.messageId)).to.deep.equal([]);
    });

    it('rates clicks per template over messages created in the window, never counting another organization\'s links', async () => {
      const [org, other] = [await seedOrganization(storage), await seedOrganization(storage)];
      const m1 = uniqueId('msg'); const m2 = uniqueId('msg'); const m3 = uniqueId('msg');
      const links = [
        aLink(org.id, { messageId: m1, templateId: 'tpl-a' }), aLink(org.id, { messageId: m1, templateId: 'tpl-a', url: 'https://b.example/' }),
        aLink(org.id, { messageId: m2, templateId: 'tpl-a' }), aLink(org.id, { messageId: m3, templateId: 'tpl-b' }),
        aLink(org.id, { messageId: uniqueId('msg'), templateId: 'tpl-a', createdAt: at(-100_000) }), // before the window
        aLink(other.id, { templateId: 'tpl-a' }),
      ];
      await storage.trackedLinks.insertMany(links);
      await storage.trackedLinks.addClicks([
        { code: links[0]!.code, clicks: 2, uniqueClicks: 1, firstAt: at(5) }, { code: links[1]!.code, clicks: 1, uniqueClicks: 1, firstAt: at(5) },
        { code: links[4]!.code, clicks: 9, uniqueClicks: 9, firstAt: at(5) }, { code: links[5]!.code, clicks: 9, uniqueClicks: 9, firstAt: at(5) }]);
      const rates = await storage.trackedLinks.clickRates(org.id, 'template', at(-10), at(10));
      expect(rates).to.deep.equal([
        { key: 'tpl-a', messages: 2, clickedMessages: 1, clicks: 3, uniqueClicks: 2 },
        { key: 'tpl-b', messages: 1, clickedMessages: 0, clicks: 0, uniqueClicks: 0 },
      ]);
    });

    it('rates clicks per locale the message was rendered in, leaving out messages without one and other organizations', async () => {
      const org = await seedOrganization(storage);
      const [tw1, tw2, fr, none] = [aMessage(org.id, { locale: 'tw' }), aMessage(org.id, { locale: 'tw' }), aMessage(org.id, { locale: 'fr' }), aMessage(org.id)];
      await storage.messages.insertMany([tw1, tw2, fr, none]);
      const links = [aLink(org.id, { messageId: tw1.id }), aLink(org.id, { messageId: tw2.id }), aLink(org.id, { messageId: fr.id }), aLink(org.id, { messageId: none.id })];
      await storage.trackedLinks.insertMany(links);
      await storage.trackedLinks.addClicks([{ code: links[0]!.code, clicks: 3, uniqueClicks: 2, firstAt: at(5) }, { code: links[3]!.code, clicks: 1, uniqueClicks: 1, firstAt: at(5) }]);
      expect(await storage.trackedLinks.clickRates(org.id, 'locale', at(-10), at(10))).to.deep.equal([
        { key: 'tw', messages: 2, clickedMessages: 1, clicks: 3, uniqueClicks: 2 },
        { key: 'fr', messages: 1, clickedMessages: 0, clicks: 0, uniqueClicks: 0 },
      ]);
      expect(await storage.trackedLinks.clickRates((await seedOrganization(storage)).id, 'locale', at(-10), at(10))).to.deep.equal([]);
    });

    it('rates clicks per campaign through the campaign\'s recipients, only for the campaign\'s organization', async () => {
      const org = await seedOrganization(storage);
      const campaignId = uniqueId('camp');
      await storage.campaigns.insert({
        id: campaignId, organizationId: org.id, name: 'Promo', channel: 'SMS', templateId: null, segmentId: null, scheduledAt: null, status: 'SENDING',
        approvalRequestId: null, riskScore: 10, cursor: null, fanOutDone: false, progress: NO_PROGRESS, failureReason: null, createdByUserId: null,
        createdAt: at(0), updatedAt: at(0), startedAt: at(0), completedAt: null, cancelledAt: null,
      });
      const [m1, m2] = [uniqueId('msg'), uniqueId('msg')];
      await storage.campaigns.addRecipients(org.id, campaignId, [{ contactId: uniqueId('c'), messageId: m1, skipReason: null }, { contactId: uniqueId('c'), messageId: m2, skipReason: null }]);
      const links = [aLink(org.id, { messageId: m1 }), aLink(org.id, { messageId: m2 }), aLink(org.id, { messageId: uniqueId('msg') })];
      await storage.trackedLinks.insertMany(links);
      await storage.trackedLinks.addClicks([{ code: links[1]!.code, clicks: 4, uniqueClicks: 2, firstAt: at(3) }]);
      expect(await storage.trackedLinks.clickRates(org.id, 'campaign', at(-10), at(10))).to.deep.equal([{ key: campaignId, messages: 2, clickedMessages: 1, clicks: 4, uniqueClicks: 2 }]);
      expect(await storage.trackedLinks.clickRates((await seedOrganization(storage)).id, 'campaign', at(-10), at(10))).to.deep.equal([]);
    });

    it('keeps one settings row per organization and gives a verified domain one owner (CONFLICT for a second)', async () => {
      const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
      const domain = `${uniqueId('go').toLowerCase()}.example`;
      const settings = (organizationId: string, overrides: Partial<LinkSettings> = {}): LinkSettings => ({
        organizationId, trackLinks: true, trackEmailOpens: false, untrackedTemplateIds: [], customDomain: domain, domainToken: 'tok',
        domainVerifiedAt: null, updatedAt: at(0), ...overrides,
      });
      expect(await storage.linkSettings.find(a.id)).to.equal(null);
      await storage.linkSettings.save(settings(a.id));
      await storage.linkSettings.save(settings(b.id)); // both may claim it
      expect(await storage.linkSettings.findByVerifiedDomain(domain)).to.equal(null);
      await storage.linkSettings.save(settings(a.id, { domainVerifiedAt: at(5), untrackedTemplateIds: ['t1', 't2'], trackLinks: false }));
      expect(await storage.linkSettings.find(a.id)).to.deep.equal(settings(a.id, { domainVerifiedAt: at(5), untrackedTemplateIds: ['t1', 't2'], trackLinks: false }));
      expect((await storage.linkSettings.findByVerifiedDomain(domain))?.organizationId).to.equal(a.id);
      expect((await rejection(storage.linkSettings.save(settings(b.id, { domainVerifiedAt: at(6) })))).code).to.equal('CONFLICT');
    });
  });
}
