import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { ReceiveInboundMessages } from '../../core/use-cases/conversations/receive-inbound-messages.ts';
import { chromiumAvailable, launchBrowser, newPage, screenshot, signIn, type Watched } from './support/browser.ts';
import { ADMIN, ensureDashboardBuilt, startE2eServer, type E2eServer } from './support/e2e-server.ts';

/**
 * The dashboard end to end in headless Chromium against `npm start` on the embedded default. The
 * steps build on each other (one tenant signs up, then works through the pages). Each step names the
 * API routes it drives; a route missing from /openapi.json fails the step (every API is on main).
 */
describe('E2E: the dashboard in a real browser', function () {
  this.timeout(60_000);
  let server: E2eServer;
  let browser: Browser;
  let tenant: Watched;
  let page: Page;
  /** The tenant's own Arkesel account's vendor (VENDOR_BASE_URLS), for the own-account step. */
  let ownVendor: Awaited<ReturnType<typeof startFakeArkesel>>;
  const email = `owner-${Date.now()}@example.com`;
  let password = 'kente-cloth-42-sunrise';

  const needs = (_ctx: Mocha.Context, ...routes: string[]): void => {
    const missing = routes.filter((r) => !server.routes.has(r));
    expect(missing, 'routes this step drives are missing from /openapi.json').to.deep.equal([]);
  };
  const organizationId = async (): Promise<string> => JSON.parse(await page.evaluate(() => localStorage.getItem('nkra.session') ?? '{}')).organizationId;
  let seeded = false;
  /** Credits GHS 100 directly, as the HTTP tests do (the top-up through the gateway has its own step). */
  const seedWallet = async (): Promise<void> => {
    if (seeded) return;
    seeded = true;
    await server.container.get(INFRA.storage).wallets.update(await organizationId(), () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'e2e-seed', description: 'e2e credit' }), new Date());
  };
  /** A second browser context signed in as the platform administrator (close its context when done). */
  const adminPage = async (): Promise<Watched> => {
    const admin = await newPage(browser, server.url);
    await signIn(admin.page, ADMIN.email, ADMIN.password);
    return admin;
  };
  const go = async (path: string, heading: string | RegExp): Promise<void> => {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  before(async function () {
    // .ci/run installs chromium; in CI its absence fails the run, elsewhere the file is skipped.
    if (!chromiumAvailable()) {
      if (process.env['CI']) throw new Error('E2E: /usr/bin/chromium is missing (apt-get install chromium)');
      this.skip();
    }
    ensureDashboardBuilt();
    ownVendor = await startFakeArkesel({ apiKey: 'e2e-own-arkesel-key' });
    server = await startE2eServer({ VENDOR_BASE_URLS: JSON.stringify({ 'arkesel-sms': ownVendor.url }) });
    browser = await launchBrowser();
    tenant = await newPage(browser, server.url);
    page = tenant.page;
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await ownVendor?.close();
  });

  it('signs up (showing the API\'s field errors next to the fields), onboards and lands on the overview', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(page, '01-sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('First name').fill('Ama');
    await page.getByLabel('Last name').fill('Mensah');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Organization name').fill('Kumasi Pharmacy');
    await page.getByRole('button', { name: 'Create account' }).click();
    const passwordError = page.locator('[data-field-error="password"]');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).to.match(/8/);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Set up your organization' }).waitFor();
    // Submitting without the acknowledgement says what is missing instead of "Saved.".
    await page.getByRole('button', { name: 'Finish onboarding' }).click();
    await page.getByText('Acknowledge the messaging rules to finish onboarding', { exact: true }).waitFor();
    expect(await page.getByText('Saved.').count()).to.equal(0);
    await page.getByLabel('Business email').fill('hello@kumasi-pharmacy.example');
    await page.getByLabel('Business phone').fill('0241234567');
    await page.getByRole('checkbox', { name: 'SMS' }).check();
    await page.getByRole('checkbox', { name: /We send only to people who agreed/ }).check();
    await screenshot(page, '02-onboarding');
    await page.getByRole('button', { name: 'Finish onboarding' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    // A new organization starts with the trial credit (TRIAL_CREDIT_GHS, GHS 5 by default): it can send at once.
    expect(await page.getByTestId('overview-balance').textContent()).to.equal('GHS 5.00');
    await screenshot(page, '03-overview');
  });

  it('creates an API key: the full key is shown once with a copy button, the list shows only its prefix, and the key works', async () => {
    await go('/app/api-keys', 'API keys');
    await page.getByLabel('Name').fill('checkout service');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('secret').textContent())!;
    expect(key).to.match(/^nk_test_/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await screenshot(page, '04-api-key-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByRole('row', { name: /checkout service/ });
    await row.waitFor();
    expect(await row.textContent()).to.include(key.slice(0, 12)).and.not.include(key);
    const preview = await fetch(`${server.url}/messages/preview`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ channel: 'SMS', to: '0241234567', body: 'hi' }),
    });
    expect(preview.status).to.equal(200);
  });

  it('creates a template: variables detected, live preview with sample values, approval state in the list', async () => {
    await go('/app/templates', 'Templates');
    await page.getByLabel('Name', { exact: true }).fill('Prescription ready');
    await page.getByLabel('Body').fill('Hello {{name}}, your prescription {{ref}} is ready for pickup.');
    expect(await page.getByTestId('detected-variables').textContent()).to.include('name').and.include('ref');
    await page.getByRole('textbox', { name: 'name', exact: true }).fill('Kofi');
    expect(await page.getByTestId('template-preview').textContent()).to.equal('Hello Kofi, your prescription {{ref}} is ready for pickup.');
    if (server.routes.has('POST /compliance/check-message')) await page.getByTestId('compliance-result').waitFor();
    await screenshot(page, '05-template-editor');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('row', { name: /Prescription ready/ }).getByText('APPROVED').waitFor();
  });

  it('creates a notification event with a channel priority and fallback, and triggers a test', async function () {
    needs(this, 'GET /events', 'POST /events', 'POST /events/trigger');
    await go('/app/events', 'Notification events');
    await page.getByLabel('Name', { exact: true }).fill('Prescription ready');
    expect(await page.getByLabel('Slug').inputValue()).to.equal('prescription.ready');
    await page.getByLabel('Template').selectOption({ label: 'Prescription ready (SMS)' });
    await page.getByRole('button', { name: 'Add WHATSAPP to Fallback channels' }).click();
    await page.getByRole('button', { name: 'Create event' }).click();
    const card = page.getByRole('article').filter({ hasText: 'prescription.ready' });
    await card.waitFor();
    expect(await card.textContent()).to.include('SMS').and.include('fallback: WHATSAPP');
    await seedWallet();
    await card.getByRole('button', { name: 'Trigger a test' }).click();
    await card.getByLabel('Send the test to').fill('0241234567');
    await card.getByRole('textbox', { name: 'name', exact: true }).fill('Kofi');
    await card.getByRole('textbox', { name: 'ref', exact: true }).fill('RX-1');
    await card.getByRole('button', { name: 'Trigger now' }).click();
    await card.getByText(/^Triggered/).waitFor();
    if (server.routes.has('GET /events/{id}/triggers')) {
      await card.getByRole('button', { name: 'Recent triggers' }).click();
      await card.getByRole('row', { name: /241234567/ }).waitFor();
    }
    await screenshot(page, '06-event-editor');
  });

  it('sends a message with its cost preview, and finds it in the delivery logs with its history', async () => {
    await seedWallet();
    await go('/app/send', 'Send a message');
    // No vendor configured: the dashboard says so before anything is sent.
    expect(await page.getByTestId('outbox-banner').textContent()).to.include('Nothing leaves this machine').and.include('SMS');
    await page.getByLabel('Recipient').fill('0241234567');
    await page.getByLabel('Message', { exact: true }).fill('Your order is on its way');
    await page.getByTestId('preview-price').waitFor();
    expect(await page.getByTestId('preview').textContent()).to.include('GSM-7').and.include('+233241234567');
    await screenshot(page, '07-send');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('link', { name: 'See its delivery log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Message detail' }).waitFor();
    await page.getByRole('heading', { name: 'Status history' }).waitFor();
    expect(await page.locator('main').textContent()).to.include('+233241234567').and.include('Your order is on its way');
    await screenshot(page, '08-message-detail');
    await go('/app/logs', 'Delivery logs');
    await page.getByRole('row', { name: /\+233241234567/ }).first().waitFor();
    await page.getByLabel('Channel').selectOption('EMAIL');
    await page.getByText('No logs match these filters').waitFor();
    await page.getByLabel('Channel').selectOption('SMS');
    await page.getByRole('row', { name: /\+233241234567/ }).first().waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).to.match(/\.csv$/);
    await screenshot(page, '09-delivery-logs');
    await go('/app', 'Overview');
    const balance = Number((await page.getByTestId('overview-balance').textContent())!.replace(/[^\d.]/g, ''));
    expect(balance).to.be.below(105).and.above(104); // the trial credit, the GHS 100 top-up, less the sends
    if (server.routes.has('GET /analytics/overview')) {
      await page.getByTestId('overview-messages').filter({ hasText: /^[1-9][0-9]*$/ }).waitFor();
      expect(await page.getByTestId('overview-outbox').textContent()).to.match(/written to the outbox, not delivered/);
    }
    await screenshot(page, '21-overview-after-send');
  });

  it('lists a message scheduled with sendAt under Scheduled with its planned time, and cancels it there', async function () {
    needs(this, 'GET /delivery-logs', 'POST /messages/{id}/cancel');
    await seedWallet();
    const sendAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const scheduled = await page.evaluate(async (at) => {
      const session = JSON.parse(localStorage.getItem('nkra.session') ?? '{}') as { token: string; organizationId: string };
      const res = await fetch('/messages/send', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}`, 'x-organization-id': session.organizationId },
        body: JSON.stringify({ channel: 'SMS', to: '0241239876', body: 'Your appointment is on Friday', sendAt: at }) });
      return { status: res.status, body: await res.json() as { data: { status: string } } };
    }, sendAt);
    expect(scheduled.status).to.equal(202);
    expect(scheduled.body.data.status).to.equal('SCHEDULED');
    await go('/app/scheduled', 'Scheduled messages');
    const row = page.getByRole('row', { name: /\+233241239876/ });
    await row.waitFor();
    expect(await row.textContent()).to.include('SMS').and.include('0.03');
    await screenshot(page, '30-scheduled');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel the message to +233241239876' }).click();
    await page.getByText('Cancelled the message to +233241239876').waitFor();
    await page.getByText('No scheduled messages').waitFor();
  });

  it('imports contacts from a CSV with a progress bar and the per-row error report, then lists them', async function () {
    needs(this, 'GET /contacts', 'POST /contacts', 'POST /contacts/import');
    await go('/app/contacts', 'Contacts');
    const csv = 'firstName,lastName,phone,email,tags\nAbena,Owusu,0241111111,abena@example.com,vip\nYaw,Boateng,0242222222,,\nBad,Row,not-a-phone,not-an-email,\n';
    await page.locator('input[type=file]').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByTestId('import-status').getByText(/COMPLETED|FAILED/).waitFor({ timeout: 20_000 });
    await screenshot(page, '10-contacts-import');
    await page.getByRole('cell', { name: 'Abena Owusu', exact: true }).waitFor();
    await page.getByLabel('Search').fill('Yaw');
    await page.getByRole('cell', { name: 'Yaw Boateng', exact: true }).waitFor();
  });

  it('builds a segment with the rule builder, seeing the live matching count and sample', async function () {
    needs(this, 'GET /segments', 'POST /segments', 'POST /segments/preview', 'POST /contacts/import');
    await go('/app/segments', 'Segments');
    await page.getByLabel('Condition 1 value').fill('vip');
    await page.getByTestId('segment-count').filter({ hasText: /^1$/ }).waitFor();
    await page.getByText('Abena Owusu').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('VIP customers');
    await screenshot(page, '18-segments');
    await page.getByRole('button', { name: 'Save segment' }).click();
    await page.getByRole('row', { name: /VIP customers/ }).waitFor();
  });

  it('shows opt-out statistics and quiet hours on the Consent page, and edits a contact\'s preferences and time zone', async function () {
    needs(this, 'GET /consent/stats', 'GET /contacts/{id}/preferences', 'PUT /contacts/{id}/preferences', 'PATCH /organizations/current', 'PATCH /contacts/{id}');
    const session = JSON.parse(await page.evaluate(() => localStorage.getItem('nkra.session') ?? '{}')) as { token: string; organizationId: string };
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${server.url}${path}`, {
        method, headers: { authorization: `Bearer ${session.token}`, 'x-organization-id': session.organizationId, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = await res.json() as { data: T };
      expect(res.status, `${method} ${path}`).to.be.within(200, 299);
      return json.data;
    };
    type Grid = { preferences: Array<{ category: string; channel: string; optedIn: boolean }> };
    // Yaw (from the CSV import, not in the VIP segment the campaign step sends to) opts out through the API.
    const [yaw] = (await call<{ items: Array<{ id: string }> }>('GET', '/contacts?search=Yaw')).items;
    await call('PUT', `/contacts/${yaw!.id}/preferences`, { preferences: [{ category: 'MARKETING', channel: 'SMS', optedIn: false }, { category: 'REMINDER', channel: 'WHATSAPP', optedIn: false }] });

    await go('/app/consent', 'Consent');
    await page.getByTestId('consent-opted-out').filter({ hasText: /^2$/ }).waitFor();
    expect(await page.getByTestId('consent-recent').textContent()).to.equal('2');
    const marketing = page.getByTestId('consent-by-category').getByRole('row', { name: /MARKETING/ });
    expect((await marketing.getByRole('cell').allTextContents())).to.deep.equal(['1', '0', '1']); // SMS, WHATSAPP, total
    expect(await page.getByTestId('daily-chart').getByRole('img').getAttribute('aria-label')).to.equal('Opt-outs per day: 2 opt-outs in the last 30 days');
    await page.getByLabel('Quiet from').fill('21:00');
    await page.getByLabel('Quiet until').fill('06:30');
    await page.getByRole('button', { name: 'Save quiet hours' }).click();
    await page.getByText('Quiet hours saved: 21:00 to 06:30.').waitFor();
    expect((await call<{ quietHours: unknown }>('GET', '/organizations/current')).quietHours).to.deep.equal({ start: '21:00', end: '06:30' });
    await page.locator('details summary').click();
    await screenshot(page, '31-consent');
    // Cleared again, so the later steps' sends are not held by the night.
    await page.getByRole('button', { name: 'Clear quiet hours' }).click();
    await page.getByText('Quiet hours cleared.').waitFor();
    expect((await call<{ quietHours: unknown }>('GET', '/organizations/current')).quietHours).to.equal(null);

    await go('/app/contacts', 'Contacts');
    await page.getByRole('link', { name: 'Preferences of Yaw Boateng' }).click();
    await page.getByRole('heading', { level: 1, name: 'Yaw Boateng' }).waitFor();
    const grid = page.getByTestId('preferences-grid');
    await grid.waitFor();
    expect(await grid.getByRole('checkbox', { name: 'MARKETING on SMS', exact: true }).isChecked()).to.equal(false);
    expect(await grid.getByRole('checkbox', { name: 'REMINDER on WHATSAPP', exact: true }).isChecked()).to.equal(false);
    const exempt = grid.getByRole('checkbox', { name: 'TRANSACTIONAL on SMS (always on)' });
    expect([await exempt.isChecked(), await exempt.isDisabled()]).to.deep.equal([true, true]);
    await grid.getByRole('checkbox', { name: 'MARKETING on SMS', exact: true }).check();
    await grid.getByRole('checkbox', { name: 'ALERT on VOICE', exact: true }).uncheck();
    await page.getByText('2 unsaved changes').waitFor();
    await page.getByRole('button', { name: 'Save preferences' }).click();
    await page.getByText('Preferences saved (2 changes).').waitFor();
    const after = (await call<Grid>('GET', `/contacts/${yaw!.id}/preferences`)).preferences;
    const optedIn = (category: string, channel: string): boolean | undefined => after.find((p) => p.category === category && p.channel === channel)?.optedIn;
    expect([optedIn('MARKETING', 'SMS'), optedIn('ALERT', 'VOICE'), optedIn('REMINDER', 'WHATSAPP'), optedIn('MARKETING', 'WHATSAPP')]).to.deep.equal([true, false, false, true]);
    // The time zone: a wrong name shows the API's field error next to the field, a right one is saved.
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.locator('[data-field-error="timeZone"]').waitFor();
    expect(await page.getByLabel('Time zone').getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel('Time zone').fill('Africa/Lagos');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByText('Time zone saved: Africa/Lagos.').waitFor();
    expect((await call<{ timeZone: unknown }>('GET', `/contacts/${yaw!.id}`)).timeZone).to.equal('Africa/Lagos');
    await screenshot(page, '32-contact-preferences');

    // A delivery log row shows the message's category and, while SCHEDULED, its planned time.
    const sendAt = new Date(Date.now() + 2 * 86_400_000);
    const held = await call<{ id: string; status: string }>('POST', '/messages/send', { channel: 'SMS', to: '0242222222', body: 'Your refill is due next week', category: 'REMINDER', sendAt: sendAt.toISOString() });
    expect(held.status).to.equal('SCHEDULED');
    await go('/app/logs?status=SCHEDULED', 'Delivery logs');
    const row = page.getByRole('row', { name: /\+233242222222/ });
    await row.getByText('planned for').waitFor();
    expect(await row.textContent()).to.include('REMINDER');
    await call('POST', `/messages/${held.id}/cancel`);
  });

  it('lets a platform administrator edit the send windows, with errors next to the fields', async function () {
    needs(this, 'GET /admin/send-windows', 'PUT /admin/send-windows');
    const admin = await adminPage();
    try {
      const p = admin.page;
      await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Send windows' }).click();
      await p.getByRole('heading', { level: 1, name: 'Send windows' }).waitFor();
      // The seeded rule: GH marketing, Monday to Saturday, 08:00-19:00.
      expect(await p.getByLabel('Window 1 country').inputValue()).to.equal('GH');
      expect(await p.getByLabel('Window 1 Sunday').isChecked()).to.equal(false);
      expect(await p.getByLabel('Window 1 Saturday').isChecked()).to.equal(true);
      await p.getByRole('button', { name: 'Add a window' }).click();
      await p.getByLabel('Window 2 country').fill('ng');
      await p.getByLabel('Window 2 category').selectOption('REMINDER');
      await p.getByLabel('Window 2 Saturday').uncheck();
      await p.getByLabel('Window 2 opens at').fill('09:00');
      await p.getByLabel('Window 2 closes at').fill('08:00');
      await p.getByRole('button', { name: 'Save send windows' }).click();
      await p.locator('[data-field-error="windows[1].closesAt"]').getByText(/after the opening time/).waitFor();
      expect(await p.getByLabel('Window 2 closes at').getAttribute('aria-invalid')).to.equal('true');
      await screenshot(p, '33-admin-send-windows-error');
      await p.getByLabel('Window 2 closes at').fill('18:00');
      await p.getByRole('button', { name: 'Save send windows' }).click();
      await p.getByText(/^Saved 2 windows/).waitFor();
      const token = JSON.parse(await p.evaluate(() => localStorage.getItem('nkra.session') ?? '{}')).token as string;
      const listed = await (await fetch(`${server.url}/admin/send-windows`, { headers: { authorization: `Bearer ${token}` } })).json() as { data: { windows: unknown[] } };
      expect(listed.data.windows).to.deep.include({ country: 'NG', category: 'REMINDER', days: [1, 2, 3, 4, 5], opensAt: '09:00', closesAt: '18:00' });
      await screenshot(p, '34-admin-send-windows');
      // Back to the seeded rule only.
      await p.getByRole('button', { name: 'Remove window 2' }).click();
      await p.getByRole('button', { name: 'Save send windows' }).click();
      await p.getByText(/^Saved 1 window:/).waitFor();
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }
  });

  it('adds a webhook endpoint: the secret is shown once, a test is delivered, and the delivery can be replayed', async function () {
    needs(this, 'GET /webhook-endpoints', 'POST /webhook-endpoints', 'POST /webhook-endpoints/{id}/test');
    const received: string[] = [];
    const receiver = http.createServer((req, res) => { req.resume(); req.on('end', () => { received.push(String(req.headers['x-service-event'])); res.end('ok'); }); });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      await go('/app/webhooks', 'Webhooks');
      await page.getByLabel('URL').fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      expect(await page.getByTestId('secret').textContent()).to.match(/^whsec_/);
      await screenshot(page, '20-webhook-secret');
      await page.getByRole('button', { name: 'I have stored it' }).click();
      expect(await page.getByTestId('secret').count()).to.equal(0);
      const card = page.getByRole('article').filter({ hasText: url });
      await card.getByRole('button', { name: 'Send a test' }).click();
      await card.getByText(/Test delivered: HTTP 200/).waitFor();
      expect(received).to.include('message.status.updated');
      if (server.routes.has('GET /webhook-endpoints/{id}/deliveries')) {
        await card.getByRole('button', { name: 'Recent deliveries' }).click();
        await card.getByRole('row', { name: /message\.status\.updated/ }).first().waitFor();
      }
    } finally { await new Promise<void>((resolve) => receiver.close(() => resolve())); }
  });

  it('tops up through the sandbox gateway checkout and sees the new balance', async function () {
    needs(this, 'POST /billing/top-up', 'GET /billing/top-up-options', 'POST /billing/verify-payment', 'GET /billing/sandbox-checkout/{reference}');
    await go('/app/billing', 'Billing');
    const before = (await page.getByTestId('wallet-balance').textContent())!;
    await page.getByRole('button', { name: 'GHS 50.00' }).click();
    await screenshot(page, '11-billing');
    await page.getByRole('button', { name: /^Pay with/ }).click();
    await page.getByRole('button', { name: /Pay GHS 50\.00/ }).click();
    await page.getByRole('link', { name: /Return to the merchant/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
    const after = (await page.getByTestId('return-balance').textContent())!;
    expect(Number(after.replace(/[^\d.]/g, '')) - Number(before.replace(/[^\d.]/g, ''))).to.be.closeTo(50, 0.001);
    await screenshot(page, '12-payment-return');
  });

  it('lets a platform administrator approve a template that waited for approval', async function () {
    needs(this, 'GET /admin/approvals', 'POST /admin/approvals/{id}/approve');
    await go('/app/templates', 'Templates');
    await page.getByLabel('Name', { exact: true }).fill('Weekend promo');
    await page.getByLabel('Category').selectOption('MARKETING');
    await page.getByLabel('Body').fill('Big weekend sale on vitamins! Reply STOP to opt out.');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('row', { name: /Weekend promo/ }).getByText('PENDING_APPROVAL').waitFor();

    const admin = await adminPage();
    try {
      await admin.page.getByRole('link', { name: 'Approvals' }).click();
      const card = admin.page.getByTestId('approval').filter({ hasText: 'Weekend promo' });
      await card.waitFor();
      await screenshot(admin.page, '13-admin-approvals');
      await card.getByRole('button', { name: 'Approve' }).click();
      await admin.page.getByText('“Weekend promo” approved.').waitFor();
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }

    await page.reload();
    await page.getByRole('row', { name: /Weekend promo/ }).getByText('APPROVED').waitFor();
  });

  it('lets a platform administrator impersonate a tenant under an unmistakable banner, and exit', async function () {
    needs(this, 'GET /admin/tenants', 'POST /admin/tenants/{id}/impersonate', 'POST /admin/exit-impersonation');
    const admin = await adminPage();
    try {
      await admin.page.getByRole('link', { name: 'Tenants' }).click();
      await admin.page.getByRole('button', { name: 'Impersonate Kumasi Pharmacy' }).click();
      const banner = admin.page.getByTestId('impersonation-banner');
      await banner.getByText('Impersonating Kumasi Pharmacy').waitFor();
      await admin.page.getByTestId('overview-balance').waitFor();
      await screenshot(admin.page, '14-impersonation');
      await banner.getByRole('button', { name: 'Exit impersonation' }).click();
      await admin.page.getByRole('heading', { level: 1, name: 'Tenants' }).waitFor();
      // The banner goes when the session is back to the administrator's; wait for that instead of sampling once.
      await admin.page.getByTestId('impersonation-banner').waitFor({ state: 'detached', timeout: 5_000 });
    } finally { await admin.context.close(); }
  });

  it('lets a platform administrator add a vendor in the browser; the tenant\'s next send goes through it, without a restart', async function () {
    needs(this, 'POST /admin/providers', 'PATCH /admin/providers/{id}', 'DELETE /admin/providers/{id}');
    const vendor = await startFakeArkesel({ apiKey: 'e2e-arkesel-key' });
    const admin = await adminPage();
    try {
      await admin.page.getByRole('link', { name: 'Providers' }).click();
      await admin.page.getByRole('heading', { level: 1, name: 'Providers' }).waitFor();
      await admin.page.getByLabel('Provider name').fill('arkesel-ci');
      await admin.page.getByLabel('Vendor').fill('arkesel-sms');
      await admin.page.getByLabel('Countries').fill('CI');
      await admin.page.getByLabel('Priority').fill('1');
      await admin.page.getByLabel('Settings').fill(`senderId=NKRA\nbaseUrl=${vendor.url}`);
      await admin.page.getByLabel('Credentials').fill('apiKey=e2e-arkesel-key');
      await screenshot(admin.page, '25-admin-add-provider');
      await admin.page.getByRole('button', { name: 'Add provider' }).click();
      await admin.page.getByText('Provider arkesel-ci added').waitFor();
      await admin.page.getByRole('row', { name: /arkesel-ci/ }).getByText('credentials set').waitFor();
      expect(await admin.page.locator('main').textContent()).to.not.include('e2e-arkesel-key');
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }
    // The tenant sends to Côte d'Ivoire from the dashboard: routed to the new vendor at once.
    await go('/app/send', 'Send a message');
    await page.getByLabel('Recipient').fill('+2250701234567');
    await page.getByLabel('Message', { exact: true }).fill('Bonjour depuis Kumasi');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('link', { name: 'See its delivery log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Message detail' }).waitFor();
    await page.locator('main').getByText('arkesel-ci').first().waitFor(); // the detail loads after its heading
    expect(await page.locator('main').textContent()).to.include('arkesel-ci');
    expect(vendor.received.filter((r) => r.path === '/api/v2/sms/send')).to.have.length(1);
    await vendor.close();
  });

  it('lets a tenant register a sender ID (approved by an administrator) and add its own vendor account; its next send goes through that account under that sender', async function () {
    needs(this, 'POST /sender-ids', 'POST /vendor-accounts', 'PATCH /organizations/current');
    await go('/app/sending', 'Sending setup');
    await page.getByRole('textbox', { name: 'Sender ID' }).fill('KENTE');
    await page.getByLabel('Purpose').fill('Order and delivery updates');
    await page.getByLabel('Sample message').fill('Your Kente order has shipped');
    await page.getByRole('button', { name: 'Request sender ID' }).click();
    await page.getByTestId('sender-id-row').filter({ hasText: 'KENTE' }).getByText('PENDING').waitFor();

    const admin = await adminPage();
    try {
      await admin.page.getByRole('link', { name: 'Approvals' }).click();
      const card = admin.page.getByTestId('approval').filter({ hasText: 'SENDER_ID: KENTE' });
      await card.getByText('Order and delivery updates').waitFor();
      await card.getByRole('button', { name: 'Approve' }).click();
      await admin.page.getByText('“KENTE” approved.').waitFor();
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }

    await go('/app/sending', 'Sending setup');
    await page.getByTestId('sender-id-row').filter({ hasText: 'KENTE' }).getByRole('button', { name: 'Make default' }).click();
    await page.getByTestId('default-sender').getByText('KENTE').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('kente-arkesel');
    await page.getByLabel('Countries').fill('GH');
    await page.getByLabel(/^Credentials/).fill('apiKey=e2e-own-arkesel-key');
    await page.getByLabel(/^Settings/).fill('senderId=KENTE');
    await screenshot(page, '28-tenant-own-vendor-and-sender-id');
    await page.getByRole('button', { name: 'Add account' }).click();
    await page.getByTestId('vendor-account-row').filter({ hasText: 'kente-arkesel' }).waitFor();
    expect(await page.locator('main').textContent()).to.not.include('e2e-own-arkesel-key');

    await go('/app/send', 'Send a message');
    await page.getByLabel('Recipient').fill('+233241234567');
    await page.getByLabel('Message', { exact: true }).fill('Your Kente order has shipped');
    // The preview prices it at the own-account fee (GHS 0.01 by default), not the platform's GHS 0.03.
    await page.getByText('the fee for your own vendor account').waitFor();
    expect(await page.getByTestId('preview-price').textContent()).to.match(/0\.01/);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('link', { name: 'See its delivery log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Message detail' }).waitFor();
    await page.locator('main').getByText('kente-arkesel').first().waitFor();
    const sent = ownVendor.received.filter((r) => r.path === '/api/v2/sms/send');
    expect(sent).to.have.length(1);
    expect(sent[0]!.json).to.include({ sender: 'KENTE' });
  });

  it('starts a verification from the Verify page, checks the code the phone got, and sees the conversion', async function () {
    needs(this, 'POST /verify/start', 'POST /verify/check', 'GET /verify/analytics');
    await go('/app/verify', 'Verify');
    await page.getByLabel('Phone number or email').fill('0241230099');
    await page.getByRole('button', { name: 'Send a code' }).click();
    await page.getByText(/^Verification /).waitFor();
    const storage = server.container.get(INFRA.storage);
    const [started] = await storage.verifications.list(await organizationId(), 1);
    // The log shows the code masked; the phone (the organization's own fake Arkesel account) gets it.
    const sms = await storage.messages.findById(await organizationId(), started!.sends[0]!.messageId);
    expect(sms!.body).to.include('******').and.not.match(/\d{6}/);
    const phoneGot = async () => ownVendor.received.map((r) => (r.json as { message?: string; recipients?: string[] } | undefined))
      .findLast((j) => j?.recipients?.includes('233241230099') && /\d{6}/.test(j.message ?? ''));
    for (let i = 0; i < 100 && !(await phoneGot()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const code = /(\d{6})/.exec((await phoneGot())!.message!)![1]!;
    await page.getByLabel('Code received').fill(code);
    await page.getByRole('button', { name: 'Check the code' }).click();
    await page.getByText('Approved: the code is right.').waitFor();
    await page.getByTestId('verify-current').getByText('APPROVED').waitFor(); // the badge follows the check
    await page.reload();
    await page.getByTestId('verify-conversion').getByText('100%').waitFor();
    await page.getByTestId('verification-row').first().getByText('APPROVED').waitFor();
    await screenshot(page, '29-verify');
  });

  it('shows a contact\'s SMS in Conversations and replies to it from the thread', async function () {
    needs(this, 'GET /conversations', 'GET /conversations/{id}', 'POST /conversations/{id}/reply', 'POST /conversations/{id}/read');
    await seedWallet();
    // The message a vendor callback would bring (the callback itself and its signatures: tests/http/conversations.test.ts).
    const receive = new ReceiveInboundMessages({ storage: server.container.get(INFRA.storage), clock: { now: () => new Date() }, ids: server.container.get(INFRA.ids) });
    await receive.execute({ vendor: 'e2e', provider: 'e2e', organizationId: await organizationId() },
      [{ providerMessageId: `e2e-${Date.now()}`, channel: 'SMS', from: '+233241230077', to: '4040', body: 'Is my order on the way?', receivedAt: null, profileName: null }]);
    await go('/app/conversations', 'Conversations');
    const row = page.getByTestId('conversation-row').filter({ hasText: '+233241230077' });
    await row.getByText('Is my order on the way?').waitFor();
    await row.getByRole('link', { name: '+233241230077' }).click();
    await page.getByRole('heading', { level: 1, name: /Conversation with/ }).waitFor();
    await page.getByLabel('Reply by SMS').fill('Yes, it arrives today.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.getByText('Reply queued.').waitFor();
    await page.getByTestId('thread-item').filter({ hasText: 'Yes, it arrives today.' }).waitFor();
    await screenshot(page, '30-conversation');
  });

  it('shows the provider health to a platform administrator and runs a health check', async () => {
    const admin = await adminPage();
    try {
      await admin.page.getByRole('link', { name: 'Providers' }).click();
      await admin.page.getByRole('button', { name: 'Check the health of outbox-sms' }).click();
      await admin.page.getByRole('row', { name: /outbox-sms/ }).getByText('Checked:').waitFor();
      await screenshot(admin.page, '15-admin-providers');
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }
  });

  it('resets a forgotten password through the emailed link to PUBLIC_URL/reset-password, refusing a bad token', async () => {
    const visitor = await newPage(browser, server.url);
    try {
      await visitor.page.goto('/reset-password?token=not-a-real-token');
      await visitor.page.getByLabel('New password', { exact: true }).fill('another-long-password-9');
      await visitor.page.getByLabel('Repeat the new password').fill('another-long-password-9');
      await visitor.page.getByRole('button', { name: 'Set password' }).click();
      expect(await visitor.page.getByRole('alert').textContent()).to.match(/token|link/i);

      await visitor.page.goto('/sign-in');
      await visitor.page.getByRole('link', { name: 'Forgot your password?' }).click();
      await visitor.page.getByLabel('Email').fill(email);
      await visitor.page.getByRole('button', { name: 'Email me a reset link' }).click();
      await visitor.page.getByRole('status').filter({ hasText: /reset/i }).waitFor();
      const outbox = path.join(server.dataDir, 'outbox');
      const files = (await readdir(outbox)).filter((f) => f.includes(email.replace(/[^A-Za-z0-9@._-]/g, '_')));
      expect(files).to.have.length(1);
      const mail = await readFile(path.join(outbox, files[0]!), 'utf8');
      const link = /http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[A-Za-z0-9%_.-]+/.exec(JSON.parse(mail).text ?? mail)?.[0];
      expect(link, 'the reset link in the email').to.be.a('string');
      await visitor.page.goto(link!);
      password = 'new-baobab-password-77';
      await visitor.page.getByLabel('New password', { exact: true }).fill(password);
      await visitor.page.getByLabel('Repeat the new password').fill(password);
      await visitor.page.getByRole('button', { name: 'Set password' }).click();
      await visitor.page.getByText('Your password was updated.').waitFor();
      await screenshot(visitor.page, '17-password-reset');
      // The reset ended every session of the account, the main page's too: it signs in again with the new password.
      await page.goto('/app');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      expect(visitor.errors).to.deep.equal([]);
    } finally { await visitor.context.close(); }
  });

  it('works on a phone-sized screen and by keyboard', async () => {
    const phone = await newPage(browser, server.url, { width: 390, height: 844 });
    try {
      await phone.page.goto('/sign-in');
      await phone.page.getByLabel('Email').fill(email);
      await phone.page.getByLabel('Password').fill(password);
      await phone.page.keyboard.press('Enter');
      await phone.page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
      expect(await phone.page.locator('nav#sidenav').isVisible()).to.equal(false);
      const width = await phone.page.evaluate<number>('document.documentElement.scrollWidth');
      expect(width).to.be.at.most(390);
      // Focus lands on the page heading after a navigation, so Tab continues into the page's content;
      // the first tabbable element of the document is the skip link.
      expect(await phone.page.evaluate<string | undefined>('document.activeElement?.textContent')).to.equal('Overview');
      await phone.page.keyboard.press('Tab');
      expect(await phone.page.evaluate<string | undefined>('document.activeElement?.closest("main") ? "main" : "elsewhere"')).to.equal('main');
      expect(await phone.page.evaluate<string | undefined>('document.querySelector("a[href], button, input, select, textarea")?.textContent')).to.equal('Skip to content');
      await phone.page.getByRole('button', { name: 'Menu' }).click();
      await phone.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Delivery logs' }).click();
      await phone.page.getByRole('heading', { level: 1, name: 'Delivery logs' }).waitFor();
      await screenshot(phone.page, '16-phone-delivery-logs');
      expect(phone.errors).to.deep.equal([]);
    } finally { await phone.context.close(); }
  });

  it('opens every page of the menu without an error, each with its heading (tenant and platform administrator)', async () => {
    const pages: Array<[string, string | RegExp]> = [
      ['/app', 'Overview'], ['/app/send', 'Send a message'], ['/app/logs', 'Delivery logs'], ['/app/scheduled', 'Scheduled messages'], ['/app/templates', 'Templates'],
      ['/app/events', 'Notification events'], ['/app/contacts', 'Contacts'], ['/app/segments', 'Segments'], ['/app/campaigns', 'Campaigns'],
      ['/app/api-keys', 'API keys'], ['/app/webhooks', 'Webhooks'], ['/app/billing', 'Billing'], ['/app/compliance', 'Compliance'],
      ['/app/team', 'Team'], ['/app/onboarding', 'Organization settings'], ['/app/conversations', 'Conversations'], ['/app/consent', 'Consent'], ['/app/sso', 'Single sign-on'], ['/app/audit-log', 'Audit log'], ['/app/links', 'Tracked links'], ['/app/nowhere', 'Page not found'],
    ];
    for (const [path, heading] of pages) {
      await go(path, heading);
      await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
      expect(await page.locator('[role=alert].banner.error').count(), `error banner on ${path}`).to.equal(0);
    }
    await screenshot(page, '22-team');
    await go('/app/compliance', 'Compliance');
    await screenshot(page, '23-compliance');
    const admin = await adminPage();
    try {
      for (const name of ['Tenants', 'Revenue', 'Approvals', 'Providers', 'Send windows']) {
        await admin.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
        await admin.page.getByRole('heading', { level: 1, name }).waitFor();
        await admin.page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
        expect(await admin.page.locator('[role=alert].banner.error').count(), `error banner on ${name}`).to.equal(0);
        if (name === 'Revenue' || name === 'Tenants') await screenshot(admin.page, `24-admin-${name.toLowerCase()}`);
      }
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }
  });

  // Last: a campaign run works the worker hardest; a stall there cannot hide the other steps' results.
  it('creates a campaign, estimates it, sends it and follows its progress to the end', async function () {
    this.timeout(90_000);
    needs(this, 'GET /campaigns', 'POST /campaigns', 'POST /campaigns/{id}/send', 'GET /segments', 'POST /segments');
    await go('/app/templates', 'Templates');
    await page.getByLabel('Name', { exact: true }).fill('Stock alert');
    await page.getByLabel('Body').fill('Hello {{firstName}}, vitamins are back in stock at Kumasi Pharmacy.');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('row', { name: /Stock alert/ }).getByText('APPROVED').waitFor();
    await go('/app/campaigns', 'Campaigns');
    await page.getByLabel('Name', { exact: true }).fill('Vitamin week');
    await page.getByLabel('Template').selectOption({ label: 'Stock alert (APPROVED)' });
    await page.getByLabel('Segment').selectOption({ label: 'VIP customers (1)' });
    await page.getByRole('button', { name: 'Create campaign' }).click();
    const card = page.getByRole('article').filter({ hasText: 'Vitamin week' });
    await card.getByText('DRAFT').waitFor();
    if (server.routes.has('GET /campaigns/{id}/estimate') || server.routes.has('POST /campaigns/{id}/estimate')) {
      await card.getByRole('button', { name: 'Estimate' }).click();
      expect(await card.getByTestId('campaign-estimate').textContent()).to.match(/^Estimate: 1 recipients/);
    }
    page.once('dialog', (d) => void d.accept());
    await card.getByRole('button', { name: 'Send' }).click();
    await card.getByText(/COMPLETED/).waitFor({ timeout: 30_000 });
    expect(await card.textContent()).to.match(/Processed: 1 \/ 1/);
    await screenshot(page, '19-campaigns');
  });

  it('raised no console error or uncaught exception in the tenant\'s session', () => {
    expect(tenant.errors).to.deep.equal([]);
  });
});
