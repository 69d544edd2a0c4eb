import { expect } from 'chai';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, pollFor, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';
import { ADMIN } from './support/e2e-server.ts';

/**
 * The provider metrics and health history pages in headless Chromium against `npm start` on the
 * embedded default: a tenant sends through the seeded outbox provider (the worker delivers), then the
 * administrator sees the provider's row and the last-hour chart, and its health history.
 */
describe('E2E: provider metrics and health history in a real browser', function () {
  this.timeout(60_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('shows an administrator the providers with their figures, the last-hour chart and a provider\'s health history', async function () {
    expect([...suite.server.routes].filter((r) => r === 'GET /admin/provider-metrics' || r === 'GET /providers/{id}')).to.have.length(2);
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'metrics-e2e');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-metrics-seed', description: 'e2e credit' }), new Date());
    const key = (await api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    for (const to of ['0241234567', '0241234568', '0241234569']) expect((await api.post('/messages/send', { channel: 'SMS', to, body: 'Your order is ready' }, { apiKey: key })).status).to.equal(201);
    const admin = (await api.post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
    const outboxSms = await pollFor('the provider metrics', async () => {
      const metrics = (await api.get('/admin/provider-metrics', { token: admin })).body.data;
      const row = metrics.providers.find((p: { name: string }) => p.name === 'outbox-sms');
      return row && row.attempts >= 3 ? row as { id: string } : null;
    });
    // Earlier checks (one failed) as the worker's periodic job would have recorded them, then one now through the API.
    const history = suite.server.container.get(MESSAGING.providerRepository);
    for (const [minutesAgo, latencyMs, ok] of [[50, 12, true], [40, 18, true], [30, 95, false], [20, 15, true], [10, 11, true]] as const) {
      await history.recordHealth({ id: `e2e-check-${minutesAgo}`, providerId: outboxSms.id, ok, latencyMs, detail: ok ? 'outbox directory writable' : 'outbox directory not writable', balance: null, checkedAt: new Date(Date.now() - minutesAgo * 60_000) });
    }
    expect((await api.post(`/providers/${outboxSms.id}/health-check`, {}, { token: admin })).status).to.equal(200);

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, ADMIN.email, ADMIN.password);
      await openFromMenu(page, 'Provider metrics');
      const row = page.getByTestId('provider-metrics').getByRole('row', { name: /outbox-sms/ });
      await row.waitFor();
      expect(await row.getByRole('cell').first().textContent()).to.match(/^[3-9]/);
      expect(await row.textContent()).to.include('closed').and.include('ok');
      const chart = page.getByTestId('minute-chart').getByRole('img');
      expect(await chart.getAttribute('aria-label')).to.match(/: [3-9]\d* attempts, 0 failed$/);
      expect(await page.getByTestId('minute-chart').locator('rect.bar-attempts').count()).to.equal(60);
      await page.getByTestId('queue-metrics').getByRole('row', { name: /SMS/ }).waitFor();
      await screenshot(page, '26-admin-provider-metrics');

      await row.getByRole('link', { name: 'Health history of outbox-sms' }).click();
      await page.getByRole('heading', { level: 1, name: 'Health of outbox-sms' }).waitFor();
      await page.getByTestId('sparkline').waitFor();
      expect(await page.getByTestId('health-history').getByRole('row').count()).to.equal(7); // the header and six checks
      expect(await page.getByTestId('sparkline').locator('circle.bad').count()).to.equal(1);
      await screenshot(page, '27-admin-provider-health');
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });

  it('shows a tenant its messages waiting for delivery with an ETA, and the administrator the tenants with the most waiting', async function () {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'backlog-e2e');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-backlog-seed', description: 'e2e credit' }), new Date());
    const admin = (await api.post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
    // A ceiling of 2 messages a second (docs/admin.md) keeps 60 queued messages waiting for about 30 s.
    expect((await api.request('PATCH', `/admin/tenants/${tenant.organizationId}/delivery-limits`, { maxDeliveryPerSecond: 2 }, { token: admin })).status).to.equal(200);
    const key = (await api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    const messages = Array.from({ length: 60 }, (_, i) => ({ channel: 'SMS', to: `02420000${String(i).padStart(2, '0')}`, body: 'Your order is ready', idempotencyKey: `backlog-e2e-${i}` }));
    expect((await api.post('/messages/bulk', { async: true, messages }, { apiKey: key })).status).to.equal(202);

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Delivery logs');
      const card = page.getByTestId('delivery-backlog');
      await card.getByRole('heading', { name: 'Waiting for delivery' }).waitFor();
      // Once the worker has delivered some in the last minute, the card gives the pace and an ETA.
      await pollFor('an ETA on the Logs page', async () => ((await card.getByTestId('backlog-summary').textContent()) ?? '').match(/\d+ waiting · [\d.]+ delivered a second over the last minute · done in /) ? true : null, 20_000);
      expect(await card.getByRole('row', { name: /Transactional/ }).textContent()).to.match(/Transactional\d+/);
      await screenshot(page, '28-tenant-delivery-backlog');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(page, ADMIN.email, ADMIN.password);
      await openFromMenu(page, 'Provider metrics');
      await page.getByTestId('delivery-backlog').getByRole('heading', { name: 'Delivery backlog' }).waitFor();
      const tenantsTable = page.getByTestId('backlog-tenants');
      await tenantsTable.getByRole('row', { name: new RegExp(tenant.organizationId) }).waitFor();
      await screenshot(page, '29-admin-delivery-backlog');
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });
});

