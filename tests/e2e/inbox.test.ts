import http from 'node:http';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { registerTenant } from '../support/tenants.ts';
import { newPage, openFromMenu, screenshot, signIn, waitInPage } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/** A tenant's own web app on another origin, embedding the bell from the Nkra server. */
async function tenantSite(nkraUrl: string, attrs: { appId: string; subscriberId: string; subscriberHash: string }) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kente Shop</title>
<script src="${nkraUrl}/inbox/v1/inbox.js"></script></head>
<style>header{display:flex;justify-content:space-between;align-items:center;padding:8px 24px;border-bottom:1px solid #ddd;font-family:system-ui}</style>
<body><header><h1>Kente Shop</h1><nkra-inbox app-id="${attrs.appId}" subscriber-id="${attrs.subscriberId}" subscriber-hash="${attrs.subscriberHash}" time-zone="Africa/Lagos"></nkra-inbox></header></body></html>`;
  const server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The in-app inbox end to end in headless Chromium against `npm start` on the embedded default: a
 * tenant's page on another origin embeds <nkra-inbox>; an event triggered through the API with an
 * API key appears in the bell without a reload; reading it clears the badge.
 */
describe('E2E: the in-app inbox bell in a real browser', function () {
  this.timeout(90_000);
  const suite = useBrowserSuite({ dashboard: true });

  it('shows an event triggered through the API in the embedded bell without a reload, and marks it read', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'inbox-e2e');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-inbox-seed', description: 'e2e credit' }), new Date());
    const key = (await api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    const { appId } = (await api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as { appId: string };
    const { subscriberHash } = (await api.post('/inbox/settings/subscriber-hash', { subscriberId: 'customer-42' }, tenant.auth)).body.data as { subscriberHash: string };
    const template = await api.post('/templates', { name: 'Shipped', channel: 'IN_APP', body: 'Order {{order}} is on its way' }, tenant.auth);
    expect(template.status, template.text).to.equal(201);
    const event = await api.post('/events', { name: 'Order shipped', slug: 'order.shipped', templateId: template.body.data.id, channelPriority: ['IN_APP'] }, tenant.auth);
    expect(event.status, event.text).to.equal(201);

    const site = await tenantSite(suite.server.url, { appId, subscriberId: 'customer-42', subscriberHash });
    const { page, context, errors } = await newPage(suite.browser, site.url);
    try {
      await page.goto(site.url);
      const bell = page.getByRole('button', { name: 'Notifications' });
      await bell.waitFor();
      await waitInPage(page, "document.querySelector('nkra-inbox')?.source?.readyState === 1"); // the stream is open
      await page.evaluate("window.marker = 'no reload'");

      const fired = await api.post('/events/trigger', { event: 'order.shipped', subscriberId: 'customer-42', variables: { order: 'A-17' } }, { apiKey: key });
      expect(fired.status, fired.text).to.equal(201);
      expect(fired.body.data).to.deep.include({ status: 'DELIVERED', channel: 'IN_APP' });

      const unreadBell = page.getByRole('button', { name: 'Notifications, 1 unread' });
      await unreadBell.waitFor({ timeout: 10_000 });
      expect(await page.evaluate('window.marker')).to.equal('no reload');
      await unreadBell.click();
      const item = page.getByRole('listitem').filter({ hasText: 'Order A-17 is on its way' });
      await item.waitFor();
      expect(await item.textContent()).to.include('Order shipped');
      // The dashboard's time pattern, in the time-zone attribute's zone (issue 35: one format for pages, charts and the bell).
      const inboxAuth = { 'x-inbox-app-id': appId, 'x-inbox-subscriber-id': 'customer-42', 'x-inbox-subscriber-hash': subscriberHash };
      const created = (await api.get('/inbox/v1/feed', {}, inboxAuth)).body.data.items[0].createdAt as string;
      const lagos = new Date(created).toLocaleString('en-GB', { timeZone: 'Africa/Lagos', year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
      expect(await item.textContent()).to.include(lagos);
      await screenshot(page, '40-inbox-bell');
      await page.getByRole('button', { name: 'Mark all as read' }).click();
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
      const feed = await api.get('/inbox/v1/counts', {}, { 'x-inbox-app-id': appId, 'x-inbox-subscriber-id': 'customer-42', 'x-inbox-subscriber-hash': subscriberHash });
      expect(feed.body.data).to.deep.equal({ unread: 0, unseen: 0, total: 1 });
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
      await site.close();
    }
  });

  it('serves an example page with the bell that a tester can open', async () => {
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await page.goto('/inbox/example');
      await page.getByRole('heading', { name: 'In-app inbox example' }).waitFor();
      await page.getByRole('button', { name: 'Notifications' }).waitFor();
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });

  it('lets an owner create the inbox secret in the dashboard (shown once), copy the snippet and open the bell of a subscriber', async () => {
    const api = new ApiClient(suite.server.url);
    const tenant = await registerTenant(api, 'inbox-dashboard');
    const { page, context, errors } = await newPage(suite.browser, suite.server.url);
    try {
      await signIn(page, tenant.email, tenant.password);
      await openFromMenu(page, 'In-app inbox');
      await page.getByRole('button', { name: 'Create secret' }).click();
      const secret = await page.getByTestId('secret').textContent();
      expect(secret).to.match(/^nk_inbox_/);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      const appId = await page.getByTestId('inbox-app-id').textContent();
      expect(await page.getByTestId('inbox-snippet').textContent()).to.include(`app-id="${appId}"`);
      expect(await page.content()).not.to.include(secret!);
      await page.getByLabel('Subscriber id').fill('dashboard-user');
      await page.getByRole('button', { name: 'Open the example page' }).click();
      const link = page.getByRole('link', { name: 'Open the bell of dashboard-user' });
      const href = await link.getAttribute('href');
      await screenshot(page, '41-inbox-settings');
      await page.goto(href!);
      await waitInPage(page, "document.querySelector('nkra-inbox')?.source?.readyState === 1");
      const sent = await api.post('/messages/send', { channel: 'IN_APP', to: 'dashboard-user', body: 'Hello from the dashboard' }, tenant.auth);
      expect(sent.status, sent.text).to.equal(201);
      await page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
      expect(errors).to.deep.equal([]);
    } finally { await context.close(); }
  });
});
