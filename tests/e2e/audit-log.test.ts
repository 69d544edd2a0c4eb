import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { registerTenant, registerUser } from '../support/tenants.ts';
import { newPage, openFromMenu, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/** Issue 34, "The organization's audit log": a change made in the dashboard shows in the Audit log page, filtered, verified and exported. */
describe('E2E: the Audit log page', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('shows a template created in the dashboard with its actor and fields, filters by action, verifies the chain and exports', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'audit-e2e');
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Templates');
      await page.getByLabel('Name').fill('Audit welcome');
      await page.getByLabel('Body').fill('Welcome aboard');
      await page.getByRole('button', { name: 'Create template' }).click();
      await page.getByRole('cell', { name: 'Audit welcome' }).first().waitFor();

      await openFromMenu(page, 'Audit log');
      const row = page.getByRole('row', { name: /template\.created/ });
      await row.waitFor();
      const text = (await row.textContent())!;
      expect(text).to.include(tenant.email).and.include('Audit welcome').and.include('127.0.0.1');

      await page.getByLabel('Action').selectOption('webhook.created');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('No entries match').waitFor();
      await page.getByLabel('Action').selectOption('template.created');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('row', { name: /template\.created/ }).waitFor();

      await page.getByRole('button', { name: 'Verify the chain' }).click();
      await page.getByText(/Chain intact: \d+ entries checked/).waitFor();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export NDJSON' }).click();
      expect((await download).suggestedFilename()).to.match(/^audit-log-\d{8}-\d{6}Z\.ndjson$/);
      await page.getByText(/Downloaded audit-log-/).waitFor();
      await screenshot(page, 'audit-log');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }

    // A viewer of the same organization is not offered the page (the API answers 403 to viewers).
    const viewer = await registerUser(api, 'audit-viewer');
    await suite.server.container.get(INFRA.storage).memberships.insert({ id: randomUUID(), organizationId: tenant.organizationId, userId: viewer.userId, role: 'VIEWER', createdAt: new Date() });
    const second = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(second.page, viewer.email, viewer.password);
      await second.page.getByRole('link', { name: 'Templates' }).waitFor();
      expect(await second.page.getByRole('link', { name: 'Audit log' }).count()).to.equal(0);
    } finally {
      await second.context.close();
    }
  });
});
