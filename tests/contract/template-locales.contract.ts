import { expect } from 'chai';
import type { Contact } from '../../core/domain/contact.ts';
import type { Template } from '../../core/domain/template.ts';
import type { TemplateVariant } from '../../core/domain/template-variant.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, uniqueId } from './contract-fixtures.ts';

function aTemplate(organizationId: string): Template {
  return {
    id: uniqueId('tpl'), organizationId, name: 'Ready', channel: 'SMS', body: 'Your order is ready', subject: null, countryCode: 'GH', language: 'en',
    category: 'MARKETING', variables: [], status: 'APPROVED', reviewComment: null, createdByUserId: null, createdAt: at(0), updatedAt: at(0),
  };
}
const variant = (locale: string, body: string, approvalRequestId: string | null = null): TemplateVariant => ({
  locale, body, subject: null, status: approvalRequestId ? 'PENDING_APPROVAL' : 'APPROVED', reviewComment: null, approvalRequestId, createdAt: at(10), updatedAt: at(10),
});
function aContact(organizationId: string, n: number, locale: string | null): Contact {
  return {
    id: uniqueId('c'), organizationId, firstName: `C${n}`, lastName: null, phone: `+23324${String(7_000_000 + n).padStart(7, '0')}`, email: null, countryCode: 'GH',
    tags: [], fcmToken: null, attributes: {}, optedOutAt: null, ...(locale ? { locale } : {}), createdAt: at(n), updatedAt: at(n),
  };
}

/** TemplateRepository variants and ContactRepository locales (docs/templates.md "Locales"), run against every Storage. */
export function describeTemplateLocalesContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Template and contact locales contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('sets one variant per locale (case-insensitively), keeps the others, removes one, and never across organizations', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const template = aTemplate(org);
      await storage.templates.insert(template);
      expect(await storage.templates.putVariant(other, template.id, variant('tw', 'x'), at(20))).to.equal(null);
      await Promise.all([storage.templates.putVariant(org, template.id, variant('tw', 'Wo order no awie'), at(20)),
        storage.templates.putVariant(org, template.id, variant('fr', 'Votre commande'), at(20))]);
      const replaced = (await storage.templates.putVariant(org, template.id, variant('TW', 'Yɛda wo ase'), at(30)))!;
      expect(replaced.variants!.map((v) => [v.locale, v.body]).sort()).to.deep.equal([['TW', 'Yɛda wo ase'], ['fr', 'Votre commande']]);
      const stored = (await storage.templates.findById(org, template.id))!;
      expect(stored.variants!.find((v) => v.locale === 'fr')).to.deep.equal(variant('fr', 'Votre commande'));
      expect(await storage.templates.removeVariant(other, template.id, 'fr', at(40))).to.equal(null);
      expect((await storage.templates.removeVariant(org, template.id, 'FR', at(40)))!.variants!.map((v) => v.locale)).to.deep.equal(['TW']);
      expect(await storage.templates.removeVariant(org, template.id, 'fr', at(40))).to.equal(null);
    });

    it('moves a variant\'s status only for its own approval request', async () => {
      const org = await seedOrg();
      const template = aTemplate(org);
      await storage.templates.insert(template);
      await storage.templates.putVariant(org, template.id, variant('ee', 'Akpe', 'req-1'), at(20));
      expect(await storage.templates.setVariantStatus(org, template.id, 'ee', 'req-old', 'APPROVED', null, at(30))).to.equal(null);
      const approved = (await storage.templates.setVariantStatus(org, template.id, 'ee', 'req-1', 'REJECTED', 'Spell it out', at(30)))!;
      expect(approved.variants![0]).to.deep.include({ status: 'REJECTED', reviewComment: 'Spell it out', approvalRequestId: 'req-1' });
      expect(approved.variants![0]!.updatedAt.getTime()).to.equal(at(30).getTime());
      expect(approved.status, 'the template itself is untouched').to.equal('APPROVED');
    });

    it('keeps a contact\'s locale, counts an audience per locale (largest first) and filters on it', async () => {
      const org = await seedOrg();
      const locales = ['tw', 'tw', 'tw', 'ee', 'ee', null, 'en-GH'];
      const contacts = locales.map((l, i) => aContact(org, i, l));
      await storage.contacts.insertMany(contacts.slice(0, 4));
      for (const c of contacts.slice(4)) await storage.contacts.insert(c);
      expect((await storage.contacts.findById(org, contacts[6]!.id))!.locale).to.equal('en-GH');
      expect((await storage.contacts.findById(org, contacts[5]!.id))!.locale ?? null).to.equal(null);
      const all = { rule: { all: [] }, memberOf: null };
      expect(await storage.contacts.countByLocale(org, all, 10)).to.deep.equal([
        { locale: 'tw', count: 3 }, { locale: 'ee', count: 2 }, { locale: null, count: 1 }, { locale: 'en-GH', count: 1 }]);
      expect(await storage.contacts.countByLocale(org, all, 2)).to.have.length(2);
      const none = await storage.contacts.page(org, { rule: { field: 'locale', op: 'exists', value: false }, memberOf: null }, null, 10);
      expect(none.map((c) => c.id)).to.deep.equal([contacts[5]!.id]);
      const english = await storage.contacts.count(org, { rule: { field: 'locale', op: 'startsWith', value: ['en'] }, memberOf: null });
      expect(english).to.equal(1);
      await storage.contacts.updateMany([{ ...contacts[0]!, locale: 'fr' }]);
      expect((await storage.contacts.findById(org, contacts[0]!.id))!.locale).to.equal('fr');
      await storage.contacts.update({ ...contacts[1]!, locale: null });
      expect((await storage.contacts.findById(org, contacts[1]!.id))!.locale ?? null).to.equal(null);
    });
  });
}
