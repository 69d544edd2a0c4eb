import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 34, "API keys": the API-keys page creates a key limited to client address ranges, edits
 * them, and shows when and from which address each key was last used.
 */
describe('E2E: API keys page, allowed addresses and last use', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('creates a key limited to a range, edits the range, and shows the last use\'s address', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'key-ranges-e2e');
    const preview = (key: string) => fetch(`${suite.server.url}/messages/preview`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ channel: 'SMS', to: '0241234567', body: 'hi' }),
    });
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'API keys');
      await page.getByLabel('Name').fill('office only');
      await page.getByLabel('Allowed addresses (optional)').fill('203.0.113.0/24\n2001:DB8::/32');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.getByTestId('secret').textContent())!;
      await page.getByRole('button', { name: 'I have stored it' }).click();
      const row = page.getByRole('row', { name: /office only/ });
      await row.waitFor();
      expect(await row.getByTestId('allowed-addresses').textContent()).to.include('203.0.113.0/24').and.include('2001:db8::/32');

      const refused = await preview(key); // the test runs on 127.0.0.1, outside both ranges
      expect(refused.status).to.equal(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal('API_KEY_ADDRESS_NOT_ALLOWED');

      await row.getByRole('button', { name: 'Edit allowed addresses of office only' }).click();
      await page.getByLabel('Allowed addresses of office only').fill('10.0.0.300/8');
      await page.getByRole('button', { name: 'Save addresses' }).click();
      await page.getByText('10.0.0.300 is not an IPv4 or IPv6 address').first().waitFor();
      await page.getByLabel('Allowed addresses of office only').fill('127.0.0.0/8');
      await page.getByRole('button', { name: 'Save addresses' }).click();
      await row.getByTestId('allowed-addresses').getByText('127.0.0.0/8').waitFor();

      expect((await preview(key)).status).to.equal(200);
      for (let i = 0; i < 40; i++) {
        await page.reload();
        await page.getByRole('row', { name: /office only/ }).waitFor();
        if (await page.getByRole('row', { name: /office only/ }).getByTestId('last-used-ip').count()) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await page.getByRole('row', { name: /office only/ }).getByTestId('last-used-ip').textContent()).to.equal('from 127.0.0.1');
      await screenshot(page, 'api-key-addresses');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
