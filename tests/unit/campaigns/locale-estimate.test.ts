import { expect } from 'chai';
import type { Contact } from '../../../core/domain/contact.ts';
import type { TemplateVariant } from '../../../core/domain/template-variant.ts';
import { CreateCampaign } from '../../../core/use-cases/campaigns/create-campaign.ts';
import { EstimateCampaign } from '../../../core/use-cases/campaigns/estimate-campaign.ts';
import { RunCampaign } from '../../../core/use-cases/campaigns/run-campaign.ts';
import { SendCampaign } from '../../../core/use-cases/campaigns/send-campaign.ts';
import { buildPipeline, ghPhone, type Pipeline } from '../messaging/messaging-fixtures.ts';

/** The campaign estimate per template locale (docs/templates.md "Encoding and cost per locale"), on the memory adapters. */
describe('campaigns: estimate per locale', () => {
  let p: Pipeline;
  const scope = () => ({ organizationId: p.organizationId, userId: 'user-1' });
  const deps = () => ({ storage: p.core.storage, ids: p.core.ids, clock: p.core.clock, pricing: p.core.storage.pricing, fraud: { newTenantDays: 0, newTenantPerHour: 10_000, recipientPerHour: 20 } });
  const variant = (locale: string, body: string, status: TemplateVariant['status'] = 'APPROVED'): TemplateVariant =>
    ({ locale, body, subject: null, status, reviewComment: null, approvalRequestId: null, createdAt: p.core.clock.now(), updatedAt: p.core.clock.now() });
  let numbered = 0;
  async function contacts(n: number, locale: string | null): Promise<void> {
    const list: Contact[] = [];
    for (let k = 0; k < n; k += 1) {
      const now = p.core.clock.now();
      list.push({ id: p.core.ids.next(), organizationId: p.organizationId, firstName: `Ama${numbered}`, lastName: null, phone: ghPhone(numbered++), email: null, countryCode: 'GH',
        tags: [], fcmToken: null, attributes: {}, optedOutAt: null, ...(locale ? { locale } : {}), createdAt: now, updatedAt: now });
    }
    await p.core.storage.contacts.insertMany(list);
  }

  beforeEach(async () => { p = await buildPipeline({ balance: 100_000 }); numbered = 0; });

  it('counts each contact locale, resolves it through the chain, prices each template locale, and sums them', async () => {
    await contacts(3, null); await contacts(2, 'tw'); await contacts(4, 'ee'); await contacts(1, 'fr-CI'); await contacts(2, 'ha');
    const template = await p.template({ body: 'Your order ships today', variables: [], category: 'ALERT',
      variants: [variant('tw', `Wo order bɛkɔ ɛnnɛ ${'ɔ'.repeat(60)}`), variant('fr', `Votre commande part aujourd'hui ${'x'.repeat(150)}`), variant('ee', 'Woezɔ', 'PENDING_APPROVAL')] });
    const created = await new CreateCampaign(deps()).execute(scope(), { name: 'Locales', channel: 'SMS', templateId: template.id });

    const estimate = await new EstimateCampaign(deps()).execute(scope(), created.id);

    const byLocale = Object.fromEntries(estimate.locales.map((l) => [l.locale, l]));
    expect(Object.keys(byLocale).sort()).to.deep.equal(['en', 'fr', 'tw']);
    expect(byLocale['en']).to.deep.include({ recipients: 9, encoding: 'GSM-7', segments: 1, price: 0.03, cost: 0.27 }); // none, ee (pending), ha
    expect(byLocale['en']!.contactLocales.slice().sort()).to.deep.equal(['ee', 'ha', null].sort());
    expect(byLocale['tw']).to.deep.include({ recipients: 2, encoding: 'UCS-2', segments: 2, price: 0.06, cost: 0.12, ucs2CharacterCount: 64 });
    expect(byLocale['tw']!.ucs2Characters![0]).to.deep.include({ index: 10, char: 'ɛ' });
    expect(byLocale['fr']).to.deep.include({ recipients: 1, contactLocales: ['fr-CI'], encoding: 'GSM-7', segments: 2, cost: 0.06 });
    expect(estimate).to.include({ recipients: 12, cost: 0.45, segments: 2 });
    expect(byLocale['tw']).to.not.have.property('transliteration');

    const suggested = await new EstimateCampaign(deps()).execute(scope(), created.id, { suggestTransliteration: 'true' });
    expect(suggested.locales.find((l) => l.locale === 'tw')!.transliteration).to.deep.include({ encoding: 'GSM-7', complete: true });

    const before = await p.balance();
    await new SendCampaign(deps()).execute(scope(), created.id);
    await new RunCampaign({ ...deps(), batchSize: 5 }).execute({ campaignId: created.id, organizationId: p.organizationId });
    expect(before - await p.balance(), 'the debit equals the estimate').to.equal(45);
    const sent = await p.messages();
    expect(sent.filter((m) => m.locale === 'tw').map((m) => m.body)).to.deep.equal([`Wo order bɛkɔ ɛnnɛ ${'ɔ'.repeat(60)}`, `Wo order bɛkɔ ɛnnɛ ${'ɔ'.repeat(60)}`]);
  });
});
