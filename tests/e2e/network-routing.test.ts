import { expect } from 'chai';
import { emptyBucket } from '../../core/domain/route-learning.ts';
import { ROUTING } from '../../hosts/routing-bindings.ts';
import { ApiClient } from '../support/api-client.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';
import { ADMIN } from './support/e2e-server.ts';

/**
 * The Network routing page in headless Chromium against `npm start` on the embedded default: learning
 * has shifted a provider away from GH MTN (as the worker's evaluation stores it), and an administrator
 * sees the state, the shift and the last hour per provider and network, then saves a Telecel route with
 * its price through the form and deletes it (docs/routing.md).
 */
describe('E2E: network routing page in a real browser', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('shows learning\'s shift and figures, and saves and deletes a network route with its price', async function () {
    const stats = suite.server.container.get(ROUTING.routeStats);
    const now = Date.now();
    const start = new Date(Math.floor((now - 8 * 60_000) / 60_000) * 60_000);
    await stats.add([{ ...emptyBucket('outbox-sms', 'GH', 'MTN', start), sent: 40, reported: 10, delivered: 10, slow: 10, latency: [0, 0, 0, 0, 0, 10, 0, 0] }]);
    const at = new Date(now - 60_000);
    await stats.saveDecision([{ provider: 'outbox-sms', country: 'GH', network: 'MTN', degraded: true, since: at, reason: '100% of reports slower than 5 min' }],
      [{ provider: 'outbox-sms', country: 'GH', network: 'MTN', direction: 'away', reason: '100% of reports slower than 5 min', slowShare: 1, deliveryRate: 1, at }]);

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, ADMIN.email, ADMIN.password);
      await openFromMenu(page, 'Network routing');
      await page.getByRole('heading', { level: 1, name: 'Network routing' }).waitFor();
      expect(await page.getByTestId('route-learning').textContent()).to.include('outbox-sms for GH MTN');
      expect(await page.getByTestId('route-shifts').getByRole('row').nth(1).textContent()).to.include('shifted away').and.include('100% of reports slower than 5 min');
      const perf = page.getByTestId('route-performance').getByRole('row', { name: /GH MTN/ });
      expect(await perf.textContent()).to.include('outbox-sms').and.include('100.0%');

      await page.getByLabel('Network', { exact: true }).selectOption('TELECEL');
      await page.getByLabel('Providers (comma-separated)').fill('outbox-sms');
      await page.getByLabel('Price per segment (GHS)').fill('0.02');
      await page.getByRole('button', { name: 'Save route' }).click();
      const row = page.getByTestId('network-routes').getByRole('row', { name: /TELECEL/ });
      await row.waitFor();
      expect(await row.textContent()).to.include('outbox-sms').and.include('0.02 / segment');
      const api = new ApiClient(suite.server.url);
      const admin = (await api.post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
      const preview = await api.get('/admin/routing', { token: admin });
      expect(preview.body.data.routes.map((r: { network: string }) => r.network)).to.include('TELECEL');
      await screenshot(page, '42-admin-network-routing');
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No network routes').waitFor();
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
      await stats.saveDecision([], []);
    }
  });
});
