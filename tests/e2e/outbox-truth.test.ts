import { expect } from 'chai';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/**
 * Issue 29, "The outbox is still a quiet fallback": a real SMS vendor is configured but failing, the
 * message lands in the local outbox, and the dashboard never shows it as a green SENT: the logs, the
 * message detail and the banner all say it did not leave the machine.
 */
describe('E2E: the outbox is never a quiet SENT in the dashboard', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('marks an outbox fallback "outbox, not delivered" in the logs and detail, and the banner says SMS can fall back', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'outbox-truth-e2e');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-outbox-seed', description: 'e2e credit' }), new Date());
    // A real vendor routed for Ghana whose host refuses connections: degraded, so sends fall over to the seeded outbox.
    await suite.server.container.get(MESSAGING.providerRepository).upsert({
      name: 'arkesel-degraded', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active: true, countries: ['GH'], settings: { senderId: 'NKRA', baseUrl: 'http://127.0.0.1:9' },
    }, { apiKey: 'arkesel-key' }, new Date());
    await suite.server.container.get(MESSAGING.runtime).reload();
    const key = (await api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    const sent = await api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'Your order is ready' }, { apiKey: key });
    expect(sent.body.data).to.include({ deliveredVia: 'OUTBOX', localOnly: true });

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Delivery logs');
      const row = page.getByRole('row', { name: /\+233241234567/ }).first();
      await row.waitFor();
      expect(await row.getByTestId('outbox-badge').textContent()).to.equal('SENT · outbox, not delivered');
      expect(await row.locator('.badge-sent').count()).to.equal(0);
      await screenshot(page, 'outbox-truth-logs');
      await row.getByRole('link', { name: /Details/ }).click();
      await page.getByRole('heading', { level: 1, name: 'Message detail' }).waitFor();
      expect(await page.getByTestId('outbox-badge').textContent()).to.include('outbox, not delivered');
      await openFromMenu(page, 'Send a message');
      await page.getByTestId('outbox-fallback-banner').waitFor();
      expect(await page.getByTestId('outbox-fallback-banner').textContent()).to.include('SMS can fall back to the local outbox');
      await screenshot(page, 'outbox-truth-banner');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
