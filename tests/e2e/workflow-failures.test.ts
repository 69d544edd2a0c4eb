import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, pollFor, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/** Issue 31: a run that gives up alerts on the overview and the Events page, lists its failed step and error, and is cleared by acknowledging it. */
describe('E2E: the dashboard alerts workflow runs that gave up', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('shows "3 workflow runs failed" on the overview and Events page, lists them with step and error, and acknowledging clears it for the organization', async () => {
    const api = new ApiClient(suite.server.url, 30_000);
    const tenant = await registerTenant(api, 'workflow-failures-e2e');
    // An empty wallet: every send step fails with INSUFFICIENT_BALANCE, and one attempt makes the run give up at once.
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId,
      (w) => ({ amount: -w.balance, kind: 'ADJUSTMENT', reference: `drain-${randomUUID()}`, description: 'test: empty wallet' }), new Date());
    const template = (await api.post('/templates', { name: 'Reminder', channel: 'SMS', body: 'Invoice {{n}} is due' }, tenant.auth)).body.data;
    const event = (await api.post('/events', { name: 'Invoice due', slug: 'invoice.due', templateId: template.id }, tenant.auth)).body.data;
    expect((await api.put(`/events/${event.id}/workflow`, { steps: [{ type: 'send' }], retry: { attempts: 1, backoffSeconds: 0 } }, tenant.auth)).status).to.equal(200);
    const runIds: string[] = [];
    for (const n of [1, 2, 3]) {
      const res = await api.post('/events/trigger', { event: 'invoice.due', to: `+23324123456${n}`, correlationKey: `INV-${n}`, variables: { n: String(n) } }, tenant.auth);
      expect(res.status, res.text).to.equal(201);
      runIds.push(res.body.data.id);
    }
    await pollFor('the three runs to give up', async () => {
      const alert = (await api.get('/workflow-runs/failure-alert', tenant.auth)).body.data;
      return alert.failedRuns === 3 ? alert : null;
    }, 30_000);

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      const banner = page.getByTestId('workflow-failure-banner');
      await banner.getByText('3 workflow runs failed in the last 24 hours.').waitFor();
      await banner.getByRole('link', { name: 'See the failed runs' }).click();
      await page.getByRole('heading', { level: 1, name: 'Failed workflow runs' }).waitFor();
      const table = page.getByRole('table', { name: 'Failed runs' });
      await table.getByRole('row').nth(3).waitFor();
      expect(await table.getByRole('row').count()).to.equal(4); // the header and the three runs
      for (const n of [1, 2, 3]) {
        const row = table.getByRole('row', { name: new RegExp(`INV-${n}`) });
        expect(await row.textContent()).to.include('invoice.due (v1)').and.include('Step 1: send').and.include('INSUFFICIENT_BALANCE');
      }
      await table.getByRole('row', { name: /INV-2/ }).getByRole('button', { name: /Show the timeline/ }).click();
      const timeline = page.getByLabel('Run timeline');
      await timeline.getByRole('row', { name: /send/ }).getByText('FAILED').first().waitFor();
      expect(await timeline.textContent()).to.include(runIds[1]);

      await openFromMenu(page, 'Events', 'Notification events');
      const eventsBanner = page.getByTestId('workflow-failure-banner');
      await eventsBanner.getByText('3 workflow runs failed in the last 24 hours.').waitFor();
      await screenshot(page, 'workflow-failure-banner');
      await eventsBanner.getByRole('button', { name: 'Acknowledge' }).click();
      await eventsBanner.waitFor({ state: 'detached' });
      const after = (await api.get('/workflow-runs/failure-alert', tenant.auth)).body.data;
      expect(after.failedRuns).to.equal(0);
      expect(after.acknowledged.userId).to.equal(tenant.userId);

      await openFromMenu(page, 'Overview');
      await page.getByTestId('overview-balance').waitFor();
      await page.waitForTimeout(500); // the alert's answer has come by now (it is asked for with the page's other data)
      expect(await page.getByTestId('workflow-failure-banner').count()).to.equal(0);
      await page.goto('/app/workflow-runs/failed');
      await page.getByRole('heading', { level: 1, name: 'Failed workflow runs' }).waitFor();
      await table.getByRole('row').nth(3).waitFor(); // acknowledged runs stay listed
      expect(await page.getByTestId('workflow-failure-banner').count()).to.equal(0);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
