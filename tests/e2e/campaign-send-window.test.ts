import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, pollFor, screenshot, signIn } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';
import { ADMIN } from './support/e2e-server.ts';

/**
 * A campaign held by a send window, as a tenant sees it: `npm start` with send windows on (the
 * default), a GH marketing window an administrator set to a weekday three days away (so the hour the
 * suite runs at does not matter), a campaign sent now. The worker fans it out as SCHEDULED messages,
 * and the campaign's card says why nothing went out yet and where to see them.
 */
describe('E2E: a campaign held by a send window in a real browser', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true, env: { SEND_WINDOWS: 'on' } });

  it('shows the held messages on the campaign\'s card, with the reason and a link to the scheduled messages', async () => {
    const api = new ApiClient(suite.server.url);
    const admin = (await api.post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
    const closedToday = (new Date().getUTCDay() + 3) % 7; // Accra keeps UTC all year
    const windows = await api.put('/admin/send-windows', { windows: [{ country: 'GH', category: 'MARKETING', days: [closedToday], opensAt: '08:00', closesAt: '19:00' }] }, { token: admin });
    expect(windows.status, windows.text).to.equal(200);

    const tenant = await registerTenant(api, 'held-campaign');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-held-seed', description: 'e2e credit' }), new Date());
    for (const [firstName, phone] of [['Esi', '0241230001'], ['Kwame', '0241230002']] as const) {
      expect((await api.post('/contacts', { firstName, phone }, tenant.auth)).status).to.equal(201);
    }
    const template = await api.post('/templates', { name: 'Market day', channel: 'SMS', body: 'Hello {{firstName}}, market day prices at Makola this Saturday.' }, tenant.auth);
    expect(template.status, template.text).to.equal(201);
    const campaign = await api.post('/campaigns', { name: 'Market day', channel: 'SMS', templateId: template.body.data.id }, tenant.auth);
    expect(campaign.status, campaign.text).to.equal(201);
    const id = campaign.body.data.id as string;
    expect((await api.post(`/campaigns/${id}/send`, undefined, tenant.auth)).status).to.equal(200);
    const held = await pollFor('the campaign to be fanned out', async () => {
      const view = (await api.get(`/campaigns/${id}`, tenant.auth)).body.data;
      return view.counts.scheduled === 2 ? view : null;
    }, 30_000);
    expect(held).to.include({ status: 'SENDING' });
    expect(held.counts).to.include({ recipients: 2, queued: 0, sent: 0 });

    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'Campaigns');
      const card = page.getByRole('article').filter({ hasText: 'Market day' });
      await card.getByTestId('campaign-held').waitFor();
      expect(await card.getByTestId('campaign-held').textContent()).to.match(/^2 messages wait for the send window of the recipient’s country \(.*\) or your quiet hours\. They go out when it opens, already paid for/);
      expect(await card.textContent()).to.include('scheduled 2').and.match(/Processed: 2 \/ 2/); // both handed over (fan-out done), both held
      await screenshot(page, '28-campaign-held-by-send-window');
      await card.getByRole('link', { name: 'Scheduled messages' }).click();
      await page.getByRole('heading', { level: 1, name: 'Scheduled messages' }).waitFor();
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });
});

