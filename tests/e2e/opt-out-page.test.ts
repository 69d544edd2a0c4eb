import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { screenshot } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * The hosted opt-out page (issue 19, docs/consent.md) in headless Chromium with JavaScript switched off,
 * on a 360 x 640 phone screen, against the server as `npm start` runs it: a marketing SMS's link opens
 * the page, the Unsubscribe button records the opt-out, the form changes category choices.
 */
describe('E2E: the hosted opt-out page on a small phone without JavaScript', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: false });

  it('unsubscribes with one tap, then saves category choices, each recorded for the recipient', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'optout-e2e');
    const storage = suite.server.container.get(INFRA.storage);
    await storage.wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-optout-seed', description: 'e2e credit' }), new Date());
    const phone = '+233244111222';
    const sent = await api.post('/messages/send', { channel: 'SMS', to: phone, body: 'Kente Shop: 20% off all weekend', category: 'MARKETING', idempotencyKey: 'e2e-optout-1' }, tenant.auth);
    expect(sent.status, sent.text).to.be.oneOf([201, 202]);
    const message = (await api.get(`/messages/${sent.body.data.id}`, tenant.auth)).body.data as { body?: string };
    const preview = await api.post('/messages/preview', { channel: 'SMS', to: phone, body: 'Kente Shop: 20% off all weekend', category: 'MARKETING' }, tenant.auth);
    const link = /(https?:\/\/\S+\/u\/[A-Za-z0-9_-]{16})/.exec(message.body ?? preview.body.data.body)![1]!;
    const path = new URL(link).pathname;

    const context = await suite.browser.newContext({ baseURL: suite.server.url, viewport: { width: 360, height: 640 }, javaScriptEnabled: false, isMobile: true, locale: 'en-GB' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      await page.goto(path);
      await expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('Org optout-e2e');
      const button = page.getByRole('button', { name: 'Unsubscribe' });
      const box = await button.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box)).to.equal(true);
      expect(await page.content()).to.not.include(phone);
      await screenshot(page, '35-opt-out-page');
      await button.click();
      await page.getByRole('status').filter({ hasText: 'You are unsubscribed from offers and promotions.' }).waitFor();
      // Said once, and no button left to tap again (issue 35).
      expect(await page.getByText('You are unsubscribed from offers and promotions.').count()).to.equal(1);
      expect(await page.getByRole('button', { name: 'Unsubscribe' }).count()).to.equal(0);
      expect((await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone, 'MARKETING'))?.category).to.equal('MARKETING');

      // Back in for offers, out of reminders: the form's checkboxes, submitted without any script.
      await page.getByLabel('Offers and promotions').check();
      await page.getByLabel('Reminders').uncheck();
      await page.getByRole('button', { name: 'Save my choices' }).click();
      await page.getByRole('status').filter({ hasText: 'Your choices are saved.' }).waitFor();
      expect(await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone, 'MARKETING')).to.equal(null);
      expect((await storage.suppressions.findMatch(tenant.organizationId, 'SMS', phone, 'REMINDER'))?.category).to.equal('REMINDER');
      expect(await page.getByLabel('Reminders').isChecked()).to.equal(false);
      await screenshot(page, '36-opt-out-page-saved');

      await page.goto('/u/AAAAAAAAAAAAAAAA');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).to.equal('This link is not valid');
    } finally {
      await context.close();
    }
  });
});
