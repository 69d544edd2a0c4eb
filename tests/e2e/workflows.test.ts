import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, pollFor, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/** Issue 31: the Events page edits an event's workflow (step list, validation, preview) and shows a run's timeline. */
describe('E2E: workflow editor and run timeline on the Events page', function () {
  this.timeout(120_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('builds a two-step workflow with a preview, refuses a bad delay before saving, and shows the run\'s timeline', async () => {
    const api = new ApiClient(suite.server.url, 30_000); // the shared machine is slow at times
    const tenant = await registerTenant(api, 'workflow-e2e');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId,
      () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
    const template = (await api.post('/templates', { name: 'Shipped', channel: 'SMS', body: 'Order {{order}} shipped' }, tenant.auth)).body.data;
    const event = (await api.post('/events', { name: 'Order shipped', slug: 'order.shipped', templateId: template.id }, tenant.auth)).body.data;
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Events', 'Notification events');
      await page.getByRole('button', { name: 'Workflow', exact: true }).click();
      await page.getByText('Workflow (one step: the event itself)').waitFor();
      await page.getByRole('button', { name: '+ Add step' }).click();
      const step2 = page.getByRole('listitem', { name: 'Step 2' });
      await step2.getByLabel('Seconds').fill('soon');
      await page.getByText('Step 2: the delay needs a whole number of seconds.').waitFor();
      expect(await page.getByRole('button', { name: 'Save workflow' }).isDisabled()).to.equal(true);
      await step2.getByLabel('Seconds').fill('600');
      const preview = page.getByLabel('Preview');
      expect(await preview.textContent()).to.include('Send Shipped on SMS').and.include('Wait 600 s');
      await page.getByRole('button', { name: 'Save workflow' }).click();
      await page.getByText('Saved as version 1').waitFor();

      const trigger = await api.post('/events/trigger', { event: 'order.shipped', to: '+233241234567', variables: { order: 'A-1' } }, tenant.auth);
      expect(trigger.status, trigger.text).to.equal(201);
      await pollFor('the run waiting in its delay', async () => {
        const run = await api.get(`/workflow-runs/${trigger.body.data.id}`, tenant.auth);
        return run.body.data.status === 'WAITING' ? run : null;
      });
      await page.getByRole('button', { name: 'Workflow', exact: true }).click();
      await page.getByRole('button', { name: 'Workflow', exact: true }).click();
      await page.getByText('Workflow version 1').waitFor();
      await page.getByRole('button', { name: 'Show timeline' }).click();
      const timeline = page.getByLabel('Run timeline');
      await timeline.getByRole('row', { name: /send/ }).getByText('SENT').first().waitFor();
      expect(await timeline.getByRole('row', { name: /delay/ }).textContent()).to.include('WAITING').and.include('DELAYED');
      expect((await api.get(`/events/${event.id}/workflow`, tenant.auth)).body.data.steps).to.have.length(2);
      await screenshot(page, 'workflow-editor');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
