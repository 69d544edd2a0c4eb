import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { startTinyDnsServer, type TinyDnsServer } from '../support/tiny-dns-server.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 33, "Tracked links" (docs/links.md): a templated SMS carries a short link; a person's click (the
 * browser following it) shows as the template's click rate on the Tracked links page; the page turns
 * open tracking on and verifies a custom link domain by DNS TXT.
 */
describe('E2E: tracked links page, click rate and the custom link domain', function () {
  this.timeout(120_000);
  let dns: TinyDnsServer;
  const env: Record<string, string> = { LINK_TRACKING: 'on' };
  before(async () => { dns = await startTinyDnsServer(); env['DNS_SERVERS'] = dns.address; });
  const suite = useBrowserSuite({ dashboard: true, env });
  after(async () => { await dns?.close(); });

  it('shows a template\'s click rate after a click, saves settings and verifies the link domain', async () => {
    const api = new ApiClient(suite.server.url);
    const owner = await registerTenant(api, 'links-e2e');
    const template = await api.post('/templates', { name: 'Harmattan sale', channel: 'SMS', body: 'Sale today: https://shop.example.com.gh/sale' }, owner.auth);
    expect(template.status, template.text).to.equal(201);
    const storage = suite.server.container.get(INFRA.storage);
    await storage.wallets.update(owner.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `e2e-${randomUUID()}`, description: 'e2e top-up' }), new Date());
    const sent = await api.post('/messages/send', { channel: 'SMS', to: '0241234567', templateId: template.body.data.id, async: true }, owner.auth);
    expect(sent.status, sent.text).to.equal(202);
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, owner.email, owner.password);
      const body = (await storage.messages.findById(owner.organizationId, sent.body.data.id))!.body;
      const shortUrl = /(http:\/\/127\.0\.0\.1:\d+\/l\/\w{12})/.exec(body)![1]!;
      // A person follows the link from a phone (the target is not reachable here; the 302 is what counts). The
      // dashboard's headless browser would not count: HeadlessChrome is on the non-human list (docs/links.md).
      const answer = await page.request.get(shortUrl, { maxRedirects: 0, headers: { 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36' } });
      expect(answer.status()).to.equal(302);
      expect(answer.headers()['location']).to.equal('https://shop.example.com.gh/sale');
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the click buffer writes every second

      await openFromMenu(page, 'Tracked links');
      const row = page.getByTestId('template-clicks').getByRole('row', { name: /Harmattan sale/ });
      await row.waitFor();
      expect(await row.getByTestId('click-rate').textContent()).to.equal('100.0%');

      await page.getByLabel('Track email opens with a 1x1 image').check();
      await page.getByText('Link settings saved.').waitFor();
      const domain = `go-${randomUUID().slice(0, 8)}.test`;
      await page.getByRole('textbox', { name: 'Link domain' }).fill(domain);
      await page.getByRole('button', { name: 'Set domain' }).click();
      await page.getByTestId('link-domain').getByText('UNVERIFIED').waitFor();
      await page.getByRole('button', { name: 'Verify domain' }).click();
      await page.getByText('is not verified: no TXT record found').waitFor();
      dns.txt.set((await page.getByTestId('link-txt-name').textContent())!, [(await page.getByTestId('link-txt-value').textContent())!]);
      await page.getByRole('button', { name: 'Verify domain' }).click();
      await page.getByTestId('link-domain').getByText('VERIFIED').waitFor();
      // The link base follows the verified domain once the page has reloaded the settings: wait for it, then read it.
      await page.getByTestId('link-base').filter({ hasText: `https://${domain}/l` }).waitFor();
      expect(await page.getByTestId('link-base').textContent()).to.equal(`https://${domain}/l`);
      await screenshot(page, 'tracked-links');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
