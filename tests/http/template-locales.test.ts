import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { CHANNELS } from '../../core/domain/channel.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { CsvParseReader } from '../../adapters/csv/csv-parse-reader.ts';
import { ProcessContactImport } from '../../core/use-cases/contacts/process-contact-import.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

/** Issue 33: template variants per locale, the fallback chain, contact locales, per-locale cost (docs/templates.md "Locales"). */
describe('HTTP: template locales (variants, fallback chain, per-locale cost)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let owner: TestTenant;
  let admin: { token: string };
  let apiKey: string;
  const sms = new RecordingProvider('SMS', 'recording-sms');

  async function smsTemplate(body: string, category = 'TRANSACTIONAL', tenant = owner) {
    const res = await app.api.post('/templates', { name: `T ${randomUUID().slice(0, 6)}`, channel: 'SMS', body, category }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; status: string };
  }
  const putVariant = (id: string, locale: string, body: unknown, tenant = owner) => app.api.put(`/templates/${id}/variants/${locale}`, body, tenant.auth);

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], CHANNELS.map((c) => new SandboxProvider(c, 50))) });
    owner = await registerTenant(app.api, 'locales');
    const user = await registerUser(app.api, 'locales-admin');
    await app.container.get(INFRA.storage).users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token };
    const key = await app.api.post('/api-keys', { name: 'Locales', isSandbox: true }, owner.auth);
    apiKey = key.body.data.key;
  });
  after(async () => { await app.close(); });

  it('sets, lists, replaces and removes variants; refuses bad locales, the own language and unknown placeholders', async () => {
    const t = await smsTemplate('Hello {{name}}, your order is ready');
    const tw = await putVariant(t.id, 'TW', { body: 'Akwaaba {{name}}, wo order no awie' });
    expect(tw.status, tw.text).to.equal(200);
    expect(tw.body.data.variants).to.have.length(1);
    expect(tw.body.data.variants[0]).to.deep.include({ locale: 'tw', status: 'APPROVED', body: 'Akwaaba {{name}}, wo order no awie', subject: null, approvalRequestId: null });
    expect((await putVariant(t.id, 'en-gh', { body: 'Chale {{name}}, your order dey' })).body.data.variants.map((v: { locale: string }) => v.locale)).to.deep.equal(['en-GH', 'tw']);
    const replaced = await putVariant(t.id, 'tw', { body: 'Yɛda wo ase {{name}}' });
    expect(replaced.body.data.variants.find((v: { locale: string }) => v.locale === 'tw').body).to.equal('Yɛda wo ase {{name}}');
    expect((await app.api.get(`/templates/${t.id}`, owner.auth)).body.data.variants).to.have.length(2);

    const bad = await putVariant(t.id, 'english!', { body: 'x' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.deep.include({ code: 'VALIDATION_ERROR' });
    expect(bad.body.error.details.fieldErrors).to.have.property('locale');
    expect((await putVariant(t.id, 'EN', { body: 'x' })).body.error.details.fieldErrors.locale[0]).to.include("template's own language");
    const unknown = await putVariant(t.id, 'fr', { body: 'Bonjour {{prenom}}' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.details.fieldErrors.body[0]).to.include('prenom');
    expect((await putVariant(t.id, 'fr', { body: '  ' })).status).to.equal(400);
    expect((await putVariant(t.id, 'fr', { body: 'Salut', subject: 'Objet' })).body.error.details.fieldErrors).to.have.property('subject');
    expect((await putVariant(randomUUID(), 'fr', { body: 'Salut' })).status).to.equal(404);

    const other = await registerTenant(app.api, 'locales-other');
    expect((await putVariant(t.id, 'fr', { body: 'Salut' }, other)).status, 'another tenant cannot reach the template').to.equal(404);
    expect((await app.api.delete(`/templates/${t.id}/variants/en-GH`, owner.auth)).body.data.variants.map((v: { locale: string }) => v.locale)).to.deep.equal(['tw']);
    expect((await app.api.delete(`/templates/${t.id}/variants/en-GH`, owner.auth)).status).to.equal(404);
  });

  it('approves a variant of a high-risk template like a template: pending, not sent, then sent once approved', async () => {
    const t = await smsTemplate('Big sale today', 'MARKETING');
    await app.api.post(`/admin/approvals/${(await app.container.get(INFRA.storage).approvals.listPending(1_000)).find((a) => a.subjectId === t.id)!.id}/approve`, undefined, { token: admin.token });
    const res = await putVariant(t.id, 'fr', { body: 'Grande vente aujourd\'hui' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.status).to.equal('APPROVED');
    expect(res.body.data.variants[0]).to.include({ locale: 'fr', status: 'PENDING_APPROVAL', approvalRequestId: res.body.data.approvalRequestId });
    const request = (await app.container.get(INFRA.storage).approvals.findById(res.body.data.approvalRequestId))!;
    expect(request.content).to.deep.include({ locale: 'fr', body: 'Grande vente aujourd\'hui', category: 'MARKETING' });

    const before = await app.api.post('/messages/send', { channel: 'SMS', to: '0241110001', templateId: t.id, locale: 'fr', category: 'TRANSACTIONAL' }, { apiKey });
    expect(before.status, before.text).to.equal(201);
    expect(before.body.data.locale, 'a pending variant falls back to the template').to.equal('en');

    const approved = await app.api.post(`/admin/approvals/${request.id}/approve`, undefined, { token: admin.token });
    expect(approved.status, approved.text).to.equal(200);
    expect((await app.api.get(`/templates/${t.id}`, owner.auth)).body.data.variants[0]).to.include({ status: 'APPROVED' });
    const after = await app.api.post('/messages/send', { channel: 'SMS', to: '0241110001', templateId: t.id, locale: 'fr' }, { apiKey });
    expect(after.body.data.locale).to.equal('fr');
  });

  it('keeps a contact\'s locale (normalised), filters segments on it, and sends in the contact\'s, the request\'s or the organization\'s locale', async () => {
    const created = await app.api.post('/contacts', { firstName: 'Ama', phone: '0242220001', locale: 'TW' }, owner.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.locale).to.equal('tw');
    const refused = await app.api.post('/contacts', { phone: '0242220002', locale: 'not a tag' }, owner.auth);
    expect(refused.status).to.equal(400);
    expect(refused.body.error.details.fieldErrors).to.have.property('locale');
    const patched = await app.api.patch(`/contacts/${created.body.data.id}`, { firstName: 'Ama K.' }, owner.auth);
    expect(patched.body.data.locale, 'a PATCH without locale keeps it').to.equal('tw');
    await app.api.post('/contacts', { firstName: 'Kofi', phone: '0242220003', locale: 'ee' }, owner.auth);
    const segment = await app.api.post('/segments/preview', { rules: { locale: 'tw' } }, owner.auth);
    expect(segment.status, segment.text).to.equal(200);
    expect(JSON.stringify(segment.body.data)).to.include('Ama K.').and.not.include('Kofi');

    const t = await smsTemplate('Hello {{firstName}}');
    await putVariant(t.id, 'tw', { body: 'Akwaaba {{firstName}}' });
    await putVariant(t.id, 'fr', { body: 'Bonjour {{firstName}}' });
    const send = (body: Record<string, unknown>) => app.api.post('/messages/send', { channel: 'SMS', templateId: t.id, variables: { firstName: 'Ama' }, ...body }, { apiKey });
    const contactLocale = await send({ to: '0242220001' });
    expect(contactLocale.status, contactLocale.text).to.equal(201);
    expect(contactLocale.body.data).to.include({ locale: 'tw' });
    expect((await app.container.get(INFRA.storage).messages.findById(owner.organizationId, contactLocale.body.data.id))?.body).to.equal('Akwaaba Ama');
    expect((await send({ to: '0242220001', locale: 'fr-CI' })).body.data.locale, 'the request\'s locale first').to.equal('fr');
    expect((await send({ to: '0242220009' })).body.data.locale, 'nobody known: the organization default (en)').to.equal('en');
    const patchedOrg = await app.api.patch('/organizations/current', { defaultLanguage: 'fr' }, owner.auth);
    expect(patchedOrg.status, patchedOrg.text).to.equal(200);
    expect((await send({ to: '0242220009' })).body.data.locale, 'the organization default (fr)').to.equal('fr');
    expect((await send({ to: '0242220003' })).body.data.locale, 'ee has no variant: organization default').to.equal('fr');
    await app.api.patch('/organizations/current', { defaultLanguage: 'en' }, owner.auth);
    expect((await send({ to: '0242220001', locale: 'xx!' })).status).to.equal(400);

    const event = await app.api.post('/events', { name: 'Ready', slug: `ready.${randomUUID().slice(0, 6)}`, templateId: t.id }, owner.auth);
    expect(event.status, event.text).to.equal(201);
    const trigger = await app.api.post('/events/trigger', { event: event.body.data.slug, contactId: created.body.data.id }, { apiKey });
    expect(trigger.status, trigger.text).to.equal(201);
    const messages = await app.container.get(INFRA.storage).messages.list(owner.organizationId, {}, 0, 1);
    expect(messages.items[0]).to.include({ locale: 'tw', body: 'Akwaaba Ama K.' });
    const overridden = await app.api.post('/events/trigger', { event: event.body.data.slug, contactId: created.body.data.id, locale: 'fr' }, { apiKey });
    expect(overridden.status).to.equal(201);
    expect((await app.container.get(INFRA.storage).messages.list(owner.organizationId, {}, 0, 1)).items[0]).to.include({ locale: 'fr' });
  });

  it('imports contacts\' locales from a CSV column (normalised; a bad tag skips the row; a re-import updates it)', async () => {
    const tenant = await registerTenant(app.api, 'locales-import');
    const upload = async (csv: string) => {
      const form = new FormData();
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
      const res = await fetch(`${app.url}/contacts/import`, { method: 'POST', body: form, headers: { authorization: `Bearer ${tenant.token}`, 'x-organization-id': tenant.organizationId } });
      const started = await res.json() as { data: { id: string } };
      const c = app.container;
      await new ProcessContactImport({ storage: c.get(INFRA.storage), ids: c.get(INFRA.ids), clock: c.get(INFRA.clock), csv: new CsvParseReader() }).execute(started.data.id);
      return (await app.api.get(`/contacts/imports/${started.data.id}`, tenant.auth)).body.data;
    };
    const first = await upload(['firstName,phone,Locale', 'Ama,0243330001,TW', 'Kofi,0243330002,en-gh', 'Bad,0243330003,not a tag', 'None,0243330004,'].join('\n'));
    expect(first).to.include({ status: 'COMPLETED', created: 3, skipped: 1 });
    expect(first.errors[0]).to.include({ line: 4 });
    expect(first.errors[0].reason).to.include('locale');
    const locales = async () => Object.fromEntries(((await app.api.get(`/contacts?search=${encodeURIComponent('+23324333')}`, tenant.auth)).body.data.items as Array<{ firstName: string; locale: string | null }>)
      .map((c) => [c.firstName, c.locale]));
    expect(await locales()).to.deep.equal({ Ama: 'tw', Kofi: 'en-GH', None: null });
    const again = await upload(['phone,language', '0243330001,ee', '0243330002,'].join('\n'));
    expect(again).to.include({ updated: 2 });
    expect(await locales(), 'an empty cell keeps the locale').to.deep.equal({ Ama: 'ee', Kofi: 'en-GH', None: null });
  });

  it('previews per locale: encoding, segments, price, the characters forcing UCS-2, and suggestions only when asked', async () => {
    const t = await smsTemplate('Your balance is low');
    await putVariant(t.id, 'tw', { body: 'Wo sika asa, yɛsrɛ wo' });
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: '0242220001', templateId: t.id }, { apiKey });
    expect(preview.status, preview.text).to.equal(200);
    expect(preview.body.data).to.include({ locale: 'tw', encoding: 'UCS-2', ucs2CharacterCount: 2 });
    expect(preview.body.data.ucs2Characters[0]).to.deep.equal({ index: 14, codePointIndex: 14, char: 'ɛ', codePoint: 'U+025B' });
    expect(preview.body.data).to.not.have.property('transliteration');
    expect(preview.body.data.locales).to.deep.equal([
      { locale: 'en', encoding: 'GSM-7', segments: 1, price: 0.03, ucs2CharacterCount: 0 },
      { locale: 'tw', encoding: 'UCS-2', segments: 1, price: 0.03, ucs2CharacterCount: 2 },
    ]);
    const suggested = await app.api.post('/messages/preview', { channel: 'SMS', to: '0242220001', templateId: t.id, suggestTransliteration: true }, { apiKey });
    expect(suggested.body.data.transliteration).to.deep.equal({ text: 'Wo sika asa, yesre wo', encoding: 'GSM-7', segments: 1, characters: 21, complete: true });
    expect(suggested.body.data.ucs2Characters[0]).to.include({ suggestion: 'e' });

    const editor = await app.api.post('/templates/cost-preview', { variants: [{ locale: 'en', body: 'a'.repeat(100) }, { locale: 'tw', body: 'ɔ'.repeat(100) }], suggestTransliteration: true }, owner.auth);
    expect(editor.status, editor.text).to.equal(200);
    expect(editor.body.data).to.include({ channel: 'SMS', countryCode: 'GH', currency: 'GHS' });
    expect(editor.body.data.locales[0]).to.include({ locale: 'en', encoding: 'GSM-7', segments: 1, price: 0.03 });
    expect(editor.body.data.locales[1]).to.include({ locale: 'tw', encoding: 'UCS-2', segments: 2, price: 0.06, ucs2CharacterCount: 100 });
    expect(editor.body.data.locales[1].transliteration).to.include({ encoding: 'GSM-7', segments: 1 });
    const stored = await app.api.post('/templates/cost-preview', { templateId: t.id }, owner.auth);
    expect(stored.body.data.locales.map((l: { locale: string; status: string }) => [l.locale, l.status])).to.deep.equal([['en', 'APPROVED'], ['tw', 'APPROVED']]);
    expect((await app.api.post('/templates/cost-preview', {}, owner.auth)).status).to.equal(400);
    expect((await app.api.post('/templates/cost-preview', { templateId: randomUUID() }, owner.auth)).status).to.equal(404);
  });

  it('estimates a campaign across 4 locales to the pesewa of what the fan-out charges', async () => {
    const tenant = await registerTenant(app.api, 'locales-campaign');
    const storage = app.container.get(INFRA.storage);
    const locales: Array<string | null> = [null, 'tw', 'ee', 'fr'];
    for (let i = 0; i < 24; i += 1) {
      const res = await app.api.post('/contacts', { firstName: `C${i}`, phone: `+23324${String(5_000_000 + i).padStart(7, '0')}`, ...(locales[i % 4] ? { locale: locales[i % 4] } : {}) }, tenant.auth);
      expect(res.status, res.text).to.equal(201);
    }
    const t = await smsTemplate('Your order ships today. Thank you for shopping with us!', 'TRANSACTIONAL', tenant);
    await putVariant(t.id, 'tw', { body: `Wo order bɛkɔ ɛnnɛ. ${'Yɛda wo ase! '.repeat(5)}` }, tenant); // UCS-2: 85 characters, 3 segments with the campaign's opt-out link
    await putVariant(t.id, 'ee', { body: 'Wo order dzo egbe. Akpe na wo!' }, tenant); // GSM-7
    await putVariant(t.id, 'fr', { body: `Votre commande part aujourd'hui. ${'Merci beaucoup! '.repeat(10)}` }, tenant); // GSM-7, 2 segments
    const campaign = await app.api.post('/campaigns', { name: 'Locales', channel: 'SMS', templateId: t.id }, tenant.auth);
    expect(campaign.status, campaign.text).to.equal(201);
    const estimate = await app.api.get(`/campaigns/${campaign.body.data.id}/estimate`, tenant.auth);
    expect(estimate.status, estimate.text).to.equal(200);
    const byLocale = Object.fromEntries(estimate.body.data.locales.map((l: { locale: string }) => [l.locale, l]));
    expect(Object.keys(byLocale).sort()).to.deep.equal(['ee', 'en', 'fr', 'tw']);
    expect(byLocale['tw']).to.deep.include({ recipients: 6, encoding: 'UCS-2', segments: 3, price: 0.09, cost: 0.54 });
    expect(byLocale['tw'].ucs2Characters.length).to.be.greaterThan(0);
    expect(byLocale['ee']).to.deep.include({ recipients: 6, encoding: 'GSM-7', segments: 1, cost: 0.18, contactLocales: ['ee'] });
    expect(byLocale['fr']).to.deep.include({ recipients: 6, encoding: 'GSM-7', segments: 2, cost: 0.36 });
    expect(byLocale['en']).to.deep.include({ recipients: 6, contactLocales: [null], cost: 0.18 });
    expect(estimate.body.data.cost).to.equal(1.26);
    expect((await app.api.get(`/campaigns/${campaign.body.data.id}/estimate?suggestTransliteration=yes`, tenant.auth)).status).to.equal(400);
    const suggested = await app.api.get(`/campaigns/${campaign.body.data.id}/estimate?suggestTransliteration=true`, tenant.auth);
    expect(suggested.body.data.locales.find((l: { locale: string }) => l.locale === 'tw').transliteration).to.include({ encoding: 'GSM-7' });

    await storage.wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
    const balance = (await storage.wallets.get(tenant.organizationId))!.balance;
    expect((await app.api.post(`/campaigns/${campaign.body.data.id}/send`, undefined, tenant.auth)).status).to.equal(200);
    const c = app.container;
    await new RunCampaign({ storage, pricing: c.get(MESSAGING.pricing), clock: c.get(INFRA.clock), ids: c.get(INFRA.ids), fraud: c.get(MESSAGING.fraudLimits), optOutLinks: c.get(MESSAGING.optOutLinks), batchSize: 7 })
      .execute({ campaignId: campaign.body.data.id, organizationId: tenant.organizationId });
    const charged = balance - (await storage.wallets.get(tenant.organizationId))!.balance;
    expect(charged, 'the debit equals the estimate (pesewas)').to.equal(126);
    const sent = await storage.messages.list(tenant.organizationId, {}, 0, 100);
    const count = (l: string) => sent.items.filter((m) => m.locale === l).length;
    expect([count('en'), count('tw'), count('ee'), count('fr')]).to.deep.equal([6, 6, 6, 6]);
  });
});
