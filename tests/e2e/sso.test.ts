import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { startLocalOidcProvider, type LocalOidcProvider } from '../support/local-oidc-provider.ts';
import { registerTenant } from '../support/tenants.ts';
import { startTinyDnsServer, type TinyDnsServer } from '../support/tiny-dns-server.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 34, "Single sign-on": an owner configures the organization's OpenID provider and verifies its
 * email domain on the SSO page (the TXT record served by a local DNS server the app asks, DNS_SERVERS);
 * then a new colleague clicks "Sign in with SSO", signs in at the provider (oidc-provider in process)
 * and lands in the dashboard as a member created just in time.
 */
describe('E2E: single sign-on with a local OpenID provider', function () {
  this.timeout(120_000);
  let dns: TinyDnsServer;
  let idp: LocalOidcProvider;
  const env: Record<string, string> = {};
  before(async () => { dns = await startTinyDnsServer(); env['DNS_SERVERS'] = dns.address; });
  const suite = useBrowserSuite({ dashboard: true, env });
  before(async () => { if (suite.server) idp = await startLocalOidcProvider([`${suite.server.url}/sso/callback`]); });
  after(async () => { await idp?.close(); await dns?.close(); });

  it('configures SSO, verifies the domain, and signs a new member in through the provider', async () => {
    const domain = `kente-${randomUUID().slice(0, 8)}.test`;
    const owner = await registerTenant(new ApiClient(suite.server.url), 'sso-e2e');
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, owner.email, owner.password);
      await openFromMenu(page, 'Single sign-on');
      expect(await page.getByTestId('redirect-uri').textContent()).to.equal(`${suite.server.url}/sso/callback`);
      await page.getByLabel('Issuer URL').fill(idp.issuer);
      await page.getByLabel('Client ID').fill(idp.clientId);
      await page.getByLabel('Client secret').fill(idp.clientSecret);
      await page.getByLabel('Role of new members').selectOption('DEVELOPER');
      await page.getByRole('button', { name: 'Save SSO settings' }).click();
      await page.getByText('SSO settings saved.').waitFor();
      expect(await page.getByLabel('Client secret').inputValue()).to.equal(''); // write-only

      await page.getByRole('textbox', { name: 'Domain' }).fill(domain);
      await page.getByRole('button', { name: 'Add domain' }).click();
      const row = page.getByRole('row', { name: domain });
      await row.waitFor();
      await row.getByRole('button', { name: `Verify ${domain}` }).click();
      await row.getByText('is not verified: no TXT record found').waitFor();
      dns.txt.set((await row.getByTestId('txt-name').textContent())!, [(await row.getByTestId('txt-value').textContent())!]);
      await row.getByRole('button', { name: `Verify ${domain}` }).click();
      await row.getByTestId('domain-status').getByText('VERIFIED').waitFor();
      await screenshot(page, 'sso-settings');
      await page.getByRole('button', { name: 'Sign out' }).click();

      const colleague = `efua@${domain}`;
      idp.accounts.set(colleague, { email: colleague, givenName: 'Efua', familyName: 'Mensah' });
      await page.goto('/sign-in');
      await screenshot(page, 'sso-sign-in');
      await page.getByRole('link', { name: 'Sign in with SSO' }).click();
      await page.getByLabel('Work email or organization').fill(colleague);
      await page.getByRole('button', { name: 'Continue with SSO' }).click();
      await page.waitForURL(`${idp.issuer}/**`);
      await page.getByLabel('Email').fill(colleague);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(`${suite.server.url}/app`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).waitFor();
      await openFromMenu(page, 'Team');
      await page.getByRole('row', { name: new RegExp(colleague) }).getByText('DEVELOPER').waitFor();
      await screenshot(page, 'sso-signed-in');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
