import { expect } from 'chai';
import type { Template } from '../../core/domain/template.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, uniqueId } from './contract-fixtures.ts';

function aWhatsappTemplate(organizationId: string): Template {
  return {
    id: uniqueId('tpl'), organizationId, name: 'Order shipped', channel: 'WHATSAPP', body: 'Hi {{name}}, order {{orderId}} shipped', subject: null,
    countryCode: 'GH', language: 'en', category: 'TRANSACTIONAL', variables: ['name', 'orderId'], status: 'APPROVED', reviewComment: null,
    createdByUserId: null, metaTemplate: { name: 'order_shipped', language: 'en_US', components: [{ type: 'body', parameters: ['name', 'orderId'] }] },
    metaCheck: null, createdAt: at(0), updatedAt: at(0),
  };
}

/** The TemplateRepository's Meta mapping and check (docs/whatsapp-templates.md), run against every Storage. */
export function describeTemplateMetaMappingContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`TemplateRepository Meta mapping contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('keeps the mapping and the last check (its date too); a new mapping clears the check; another organization changes nothing', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const template = aWhatsappTemplate(org);
      await storage.templates.insert(template);
      expect((await storage.templates.findById(org, template.id))!.metaTemplate).to.deep.equal(template.metaTemplate);
      const check = { status: 'APPROVED' as const, metaStatus: 'APPROVED', detail: null, parameterNames: { body: ['first_name', 'order'] }, checkedAt: at(60) };
      expect(await storage.templates.setMetaCheck(other, template.id, check)).to.equal(null);
      const checked = (await storage.templates.setMetaCheck(org, template.id, check))!;
      expect(checked.metaCheck).to.deep.equal(check);
      expect((await storage.templates.findById(org, template.id))!.metaCheck!.checkedAt.getTime()).to.equal(at(60).getTime());
      const mapping = { name: 'order_shipped_v2', language: 'en', components: [{ type: 'button' as const, subType: 'url' as const, index: 0, parameters: ['orderId'] }] };
      expect(await storage.templates.setMetaTemplate(other, template.id, mapping, at(120))).to.equal(null);
      const moved = (await storage.templates.setMetaTemplate(org, template.id, mapping, at(120)))!;
      expect(moved).to.deep.include({ metaTemplate: mapping, metaCheck: null });
      expect((await storage.templates.setMetaTemplate(org, template.id, null, at(180)))!.metaTemplate).to.equal(null);
    });
  });
}
