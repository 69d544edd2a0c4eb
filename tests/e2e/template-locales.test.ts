import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 33, "Locales on templates": the templates page edits a template's variants side by side,
 * shows each locale's encoding, segments and price as you type with the UCS-2 characters highlighted,
 * and offers a GSM-7 suggestion only when asked (used only when clicked and saved).
 */
describe('E2E: template locales editor', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('adds a Twi variant, shows UCS-2 cost and highlights, uses a suggestion on request, and saves it', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'locales-e2e');
    const created = await api.post('/templates', { name: 'Parcel', channel: 'SMS', body: 'Your parcel arrives today' }, tenant.auth);
    expect(created.status, created.text).to.equal(201);
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Templates');
      await page.getByRole('button', { name: 'Locales of Parcel' }).click();
      await page.getByTestId('locale-en').getByTestId('locale-cost').getByText('GSM-7 · 1 segment · GHS 0.03 per message').waitFor();

      await page.getByLabel('New locale (BCP 47: tw, ee, gaa, fr, en-GH)').fill('tw');
      await page.getByRole('button', { name: 'Add locale' }).click();
      await page.getByLabel('Text in tw').fill(`Wo parcel bɛba ɛnnɛ. ${'Yɛda wo ase. '.repeat(4)}`);
      const tw = page.getByTestId('locale-tw');
      await tw.getByTestId('locale-cost').getByText('UCS-2 · 2 segments · GHS 0.06 per message').waitFor();
      expect(await tw.locator('mark.ucs2').count()).to.equal(7);
      expect(await tw.locator('mark.ucs2').first().textContent()).to.equal('ɛ');
      expect(await tw.getByTestId('suggestion').count(), 'no suggestion unless asked').to.equal(0);

      await page.getByLabel('Suggest GSM-7 spellings').check();
      await tw.getByTestId('suggestion').waitFor();
      expect(await page.getByLabel('Text in tw').inputValue(), 'nothing is applied silently').to.include('ɛ');
      await tw.getByRole('button', { name: 'Use suggestion' }).click();
      await tw.getByTestId('locale-cost').getByText('GSM-7 · 1 segment · GHS 0.03 per message').waitFor();
      await page.getByRole('button', { name: 'Save tw' }).click();
      await page.getByRole('status').getByText('Saved tw').waitFor();
      const stored = await api.get(`/templates/${created.body.data.id}`, tenant.auth);
      expect(stored.body.data.variants).to.have.length(1);
      expect(stored.body.data.variants[0]).to.include({ locale: 'tw', status: 'APPROVED', body: `Wo parcel beba enne. ${'Yeda wo ase. '.repeat(4)}` });
      await page.getByRole('button', { name: 'Locales of Parcel' }).getByText('en, tw').waitFor();
      await screenshot(page, 'template-locales');

      // The campaign estimate per locale: the Twi contact gets the (now GSM-7) Twi text, the other the English one.
      for (const [phone, locale] of [['0245550001', 'tw'], ['0245550002', null]] as const) {
        expect((await api.post('/contacts', { phone, ...(locale ? { locale } : {}) }, tenant.auth)).status).to.equal(201);
      }
      const campaign = await api.post('/campaigns', { name: 'Parcel week', channel: 'SMS', templateId: created.body.data.id }, tenant.auth);
      expect(campaign.status, campaign.text).to.equal(201);
      await openFromMenu(page, 'Campaigns');
      const card = page.getByRole('article').filter({ hasText: 'Parcel week' });
      await card.getByRole('button', { name: 'Estimate' }).click();
      const table = card.getByTestId('campaign-estimate-locales');
      await table.waitFor();
      expect((await table.getByRole('row').allTextContents()).slice(1).map((r) => r.slice(0, 3)).sort()).to.deep.equal(['en1', 'tw1']);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
