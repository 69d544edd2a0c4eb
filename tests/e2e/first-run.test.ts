import net from 'node:net';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { INFRA } from '../../hosts/tokens.ts';
import { ApiClient } from '../support/api-client.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { ADMIN } from './support/e2e-server.ts';
import { newPage, screenshot, signIn, type Watched } from './support/browser.ts';
import { useBrowserSuite } from './support/browser-suite.ts';

/** A port nothing listens on (for an own vendor account whose test fails on the network). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Issue 35, "Dashboard and first run": what a newcomer trips on, each in the browser: a semicolon CSV,
 * an IN_APP event's test trigger, "send later", segments, attempts, texts and notices, the own-account
 * test that failed on the network, and the administrators' provider editing, health reasons and
 * approval cards.
 */
describe('E2E: dashboard first run (issue 35)', function () {
  this.timeout(120_000);
  let arkesel: FakeArkesel;
  const env: Record<string, string> = {};
  before(async () => {
    arkesel = await startFakeArkesel({ apiKey: 'right-arkesel-key' });
    env['VENDOR_BASE_URLS'] = JSON.stringify({ 'arkesel-sms': arkesel.url, 'mnotify-sms': `http://127.0.0.1:${await closedPort()}` });
  });
  after(async () => { await arkesel?.close(); });
  const suite = useBrowserSuite({ dashboard: true, env });
  const api = (): ApiClient => new ApiClient(suite.server.url);
  let tenant: TestTenant;
  let watched: Watched;
  let page: Page;
  /** The platform provider the attempts step adds and the administrators' step edits. */
  let providerId = '';

  const go = async (path: string, heading: string | RegExp): Promise<void> => {
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  before(async function () {
    if (!suite.browser) this.skip();
    tenant = await registerTenant(api(), 'first-run');
    await suite.server.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'first-run-seed', description: 'e2e credit' }), new Date());
    await api().patch('/organizations/current', { timezone: 'Africa/Lagos', onboardingComplete: true, complianceAcknowledged: true }, tenant.auth);
    watched = await newPage(suite.browser, suite.server.url);
    page = watched.page;
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  });
  after(async () => { await watched?.context.close(); });

  it('imports a comma file and a semicolon file (BOM, CRLF, quotes) from the Contacts page alike', async () => {
    await go('/app/contacts', 'Contacts');
    const files = [
      { name: 'comma.csv', text: 'firstName,lastName,phone\nAbena,Owusu,0241111111\n' },
      { name: 'semicolon.csv', text: '\uFEFFfirstName;lastName;phone;city\r\n"Efua; Ama";Mensah;0242222222;"Accra, Osu"\r\n' },
    ];
    for (const file of files) {
      await page.locator('input[type=file]').setInputFiles({ name: file.name, mimeType: 'text/csv', buffer: Buffer.from(file.text) });
      await page.getByRole('button', { name: 'Import' }).click();
      await page.getByTestId('import-status').getByText('COMPLETED').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('import-status').textContent(), file.name).to.not.match(/skipped[^0-9]*[1-9]/i);
    }
    await screenshot(page, 'first-run-semicolon-import');
    await page.getByRole('cell', { name: 'Abena Owusu', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'Efua; Ama Mensah', exact: true }).waitFor();
    // A success notice is about the last submission: a new attempt that fails does not keep it next to its error.
    await page.getByLabel('First name').fill('Kojo');
    await page.getByLabel('Phone', { exact: true }).fill('0243333333');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.getByText('Kojo was added.').waitFor();
    await page.getByLabel('Phone', { exact: true }).fill('12');
    await page.getByRole('button', { name: 'Add contact' }).click();
    await page.locator('[data-field-error=phone]').waitFor();
    expect(await page.getByText('Kojo was added.').count()).to.equal(0);
  });

  it('test-triggers an IN_APP event with a subscriber id from the Events page', async () => {
    const template = await api().post('/templates', { name: 'Shipped', channel: 'IN_APP', body: 'Order {{order}} is on its way' }, tenant.auth);
    expect(template.status, template.text).to.equal(201);
    const event = await api().post('/events', { name: 'Order shipped', slug: 'order.shipped', templateId: template.body.data.id, channelPriority: ['IN_APP'] }, tenant.auth);
    expect(event.status, event.text).to.equal(201);
    await go('/app/events', 'Notification events');
    const card = page.getByRole('article').filter({ hasText: 'order.shipped' });
    await card.getByRole('button', { name: 'Trigger a test' }).click();
    await card.getByLabel('Subscriber id (IN_APP)').fill('customer-42');
    await card.getByRole('textbox', { name: 'order', exact: true }).fill('A-17');
    await card.getByRole('button', { name: 'Trigger now' }).click();
    await card.getByText(/^Triggered/).waitFor();
    const logs = (await api().get('/delivery-logs?channel=IN_APP', tenant.auth)).body.data.items as Array<{ recipient: string }>;
    expect(logs.map((l) => l.recipient)).to.include('customer-42');
  });

  it('sends later at a time in the organization\'s zone; the Scheduled page lists it', async () => {
    await go('/app/send', 'Send a message');
    await page.getByLabel('Recipient').fill('0241234567');
    await page.getByLabel('Message', { exact: true }).fill('Your appointment is on Friday');
    await page.getByTestId('preview').getByText('1 SMS segment', { exact: true }).waitFor();
    await page.getByLabel('Send later').check();
    const at = new Date(Date.now() + 3 * 86_400_000);
    const day = at.toISOString().slice(0, 10);
    await page.getByLabel('Send at (Africa/Lagos)').fill(`${day}T09:30`);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByRole('link', { name: 'See its delivery log' }).waitFor();
    const scheduled = (await api().get('/delivery-logs?status=SCHEDULED', tenant.auth)).body.data.items as Array<{ scheduledAt: string }>;
    expect(scheduled.map((l) => l.scheduledAt)).to.include(`${day}T08:30:00.000Z`); // 09:30 in Lagos
    // Editing the form starts a new message: the old notice goes.
    await page.getByLabel('Message', { exact: true }).fill('Another message');
    await page.getByRole('link', { name: 'See its delivery log' }).waitFor({ state: 'detached' });
    await go('/app/scheduled', 'Scheduled messages');
    await page.getByRole('row', { name: /241234567/ }).waitFor();
    await screenshot(page, 'first-run-scheduled');
  });

  it('says email has no segments, and shows a recipient error under the field, not in the preview', async () => {
    await go('/app/send', 'Send a message');
    await page.getByLabel('Channel').selectOption('EMAIL');
    await page.getByLabel('Recipient').fill('not-an-address');
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.locator('[data-field-error=to]').waitFor();
    expect(await page.locator('aside [role=alert]').count()).to.equal(0);
    await page.getByLabel('Subject').fill('Hello');
    await page.getByLabel('Recipient').fill('ama@example.com');
    await page.getByTestId('preview').waitFor().catch(async (e) => { throw new Error(`${String(e)}; preview box: ${await page.locator('aside').textContent()}`); });
    expect(await page.getByTestId('preview').textContent()).to.not.match(/segment/i);
    expect(await page.locator('[data-field-error=to]').count()).to.equal(0);
  });

  it('shows segment rules in words', async () => {
    const created = await api().post('/segments', { name: 'MTN VIPs', rules: { all: [{ field: 'phone', op: 'startsWith', value: ['024', '054'] }, { field: 'optedOut', op: 'equals', value: false }] } }, tenant.auth);
    expect(created.status, created.text).to.equal(201);
    await go('/app/segments', 'Segments');
    const cell = page.getByRole('row', { name: /MTN VIPs/ }).getByTestId('segment-rules');
    expect(await cell.textContent()).to.equal('phone starts with +23324 or +23354 and not opted out'); // as the API stores the network prefixes
  });

  it('numbers failover attempts 1, 2 and marks only the one followed by another as retried; times in the organization\'s zone', async () => {
    // A platform provider first in line with a wrong key: the vendor refuses (auth), the send fails over to the outbox.
    const admin = (await api().post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
    const provider = await api().post('/admin/providers', { name: 'e2e-arkesel', vendor: 'arkesel-sms', channel: 'SMS', priority: 0, countries: ['GH'], settings: { senderId: 'NKRA', baseUrl: arkesel.url }, credentials: { apiKey: 'wrong-arkesel-key' } }, { token: admin });
    expect(provider.status, provider.text).to.equal(201);
    providerId = provider.body.data.id as string;
    try {
      const sent = await api().post('/messages/send', { channel: 'SMS', to: '0241234599', body: 'Your order is ready' }, tenant.auth);
      expect(sent.status, sent.text).to.be.oneOf([200, 201, 202]);
      const id = sent.body.data.id as string;
      for (let i = 0; i < 100; i++) {
        const d = (await api().get(`/messages/${id}`, tenant.auth)).body.data;
        if (d.attemptLog.length >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await go(`/app/logs/${id}`, 'Message detail');
      const rows = page.getByTestId('attempt');
      await rows.nth(1).waitFor();
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
      expect(cells.map((c) => c[0])).to.deep.equal(cells.map((_, i) => String(i + 1)));
      expect(cells[0]![4]).to.include('(retried');
      expect(cells[cells.length - 1]![4]).to.not.include('retried');
      const created = (await api().get(`/messages/${id}`, tenant.auth)).body.data.createdAt as string;
      const lagos = new Date(created).toLocaleString('en-GB', { timeZone: 'Africa/Lagos', year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
      await page.locator('main time').first().waitFor();
      expect(await page.locator('main dl time').first().textContent()).to.equal(lagos);
      await screenshot(page, 'first-run-attempts');
    } finally {
      await api().patch(`/admin/providers/${provider.body.data.id}`, { priority: 900 }, { token: admin }); // behind the outbox from now on
    }
  });

  it('a passcode started on the Verify page is an OTP message in the delivery logs (docs/verify.md)', async () => {
    await go('/app/verify', 'Verify');
    await page.getByLabel('Phone number or email').fill('0241230099');
    await page.getByRole('button', { name: 'Send a code' }).click();
    await page.getByText(/^Verification /).waitFor();
    await go('/app/logs', 'Delivery logs');
    const row = page.getByRole('row', { name: /241230099/ }).first();
    await row.waitFor();
    expect(await row.locator('td').nth(3).textContent()).to.equal('OTP');
  });

  it('an own account\'s test that failed on the network is a warning, not a green box', async () => {
    await go('/app/sending', 'Sending setup');
    await page.getByLabel('Vendor', { exact: true }).selectOption('mnotify-sms');
    await page.getByLabel('Name', { exact: true }).fill('unreachable-mnotify');
    await page.getByLabel('Countries').fill('GH');
    await page.getByLabel(/^Credentials/).fill('apiKey=some-key');
    await page.getByLabel(/^Settings/).fill('senderId=KENTE');
    await page.getByRole('button', { name: 'Add account' }).click();
    const row = page.getByTestId('vendor-account-row').filter({ hasText: 'unreachable-mnotify' });
    await row.waitFor();
    page.once('dialog', (dialog) => void dialog.accept('+233241234567'));
    await row.getByRole('button', { name: 'Test' }).click();
    const result = page.getByTestId('vendor-test-result');
    await result.waitFor();
    expect(await result.locator('.banner').getAttribute('class')).to.include('warning').and.not.include('success');
    expect(await result.textContent()).to.include('did not reach the vendor');
    await screenshot(page, 'first-run-own-account-network');
    await row.getByRole('button', { name: 'Deactivate' }).click(); // later sends keep the platform's route
    await row.getByRole('button', { name: 'Activate' }).waitFor();
  });

  it('onboarding keeps input across Back, validates the phone, says a URL error once', async () => {
    await go('/app/onboarding', 'Organization settings');
    await page.getByLabel('Business phone').fill('12');
    await page.getByLabel('Website').fill('adinkra');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Organization settings' }).waitFor();
    expect(await page.getByLabel('Business phone').inputValue()).to.equal('12');
    expect(await page.getByLabel('Website').inputValue()).to.equal('adinkra');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-field-error=businessPhone]').waitFor();
    expect(await page.getByText('must be an http or https URL', { exact: false }).count()).to.equal(1);
    await page.getByLabel('Business phone').fill('030 123 4567');
    await page.getByLabel('Website').fill('https://adinkra.example');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your organization settings are saved.').waitFor();
    expect(await page.locator('[role=alert].banner.error').count()).to.equal(0);
  });

  it('administrators: a failed health check says why, a provider is edited and its credentials rotated, a MARKETING approval says it waits', async () => {
    const template = await api().post('/templates', { name: 'Weekend promo', channel: 'SMS', category: 'MARKETING', body: 'Big weekend sale! Reply STOP to opt out.' }, tenant.auth);
    expect(template.status, template.text).to.equal(201);
    const admin = await newPage(suite.browser, suite.server.url);
    try {
      const p = admin.page;
      await signIn(p, ADMIN.email, ADMIN.password);
      await p.locator('nav#sidenav a[href="/app/admin/providers"]').waitFor({ state: 'attached' });
      await p.goto('/app/admin/providers');
      const row = p.getByRole('row', { name: /e2e-arkesel/ });
      await row.getByRole('button', { name: 'Check the health of e2e-arkesel' }).click();
      await row.getByTestId('health-detail').waitFor();
      expect(await row.getByTestId('health-detail').textContent()).to.match(/auth|key|403/i);
      await screenshot(p, 'first-run-health-reason');

      await row.getByRole('button', { name: 'Edit e2e-arkesel' }).click();
      const form = p.getByRole('form', { name: /Edit e2e-arkesel/ });
      expect(await form.getByLabel('New credentials').inputValue()).to.equal('');
      expect(await p.locator('main').textContent()).to.not.include('wrong-arkesel-key');
      await form.getByLabel('Priority').fill('7');
      await form.getByLabel('New credentials').fill('apiKey=right-arkesel-key');
      await form.getByRole('button', { name: 'Save provider' }).click();
      await p.getByText(/saved with new credentials/).waitFor();
      const saved = (await api().get(`/providers`, tenant.auth)).body.data as unknown;
      const list = (Array.isArray(saved) ? saved : (saved as { items: unknown[] }).items) as Array<{ name: string; priority: number }>;
      expect(list.find((x) => x.name === 'e2e-arkesel')?.priority).to.equal(7);
      // The next sends use the new key (a health check within 30 s would answer the shared earlier result): the
      // administrators' test message through exactly this provider reaches the vendor with it and is accepted.
      const adminToken = (await api().post('/auth/login', { email: ADMIN.email, password: ADMIN.password })).body.data.token as string;
      const tested = await api().post(`/admin/providers/${providerId}/test-message`, { to: '+233241234567' }, { token: adminToken });
      expect(tested.body.data, tested.text).to.include({ accepted: true });
      expect(arkesel.received.filter((r) => r.path === '/api/v2/sms/send').at(-1)!.headers['api-key']).to.equal('right-arkesel-key');

      await p.goto('/app/admin/approvals');
      const card = p.getByTestId('approval').filter({ hasText: 'Weekend promo' });
      await card.waitFor();
      const verdict = await card.getByTestId('compliance-result').textContent();
      expect(verdict).to.include('waiting for a platform administrator’s approval').and.not.include('no approval needed');
      await screenshot(p, 'first-run-approval-card');
      expect(admin.errors).to.deep.equal([]);
    } finally { await admin.context.close(); }
  });

  it('raised no console error in the tenant\'s session', () => {
    expect(watched.errors).to.deep.equal([]);
  });
});
