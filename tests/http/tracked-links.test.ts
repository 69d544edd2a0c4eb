import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { RandomLinkCodes } from '../../adapters/security/random-link-codes.ts';
import { CHANNELS } from '../../core/domain/channel.ts';
import { LINKS } from '../../hosts/api/modules/links-module.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { startTinyDnsServer, type TinyDnsServer } from '../support/tiny-dns-server.ts';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/** A raw request (no redirect following, any Host header). */
function hit(app: TestApp, path: string, options: { method?: string; ua?: string; host?: string } = {}): Promise<{ status: number; location: string | undefined; body: string; type: string | undefined }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', timeout: 5_000,
      headers: { ...(options.ua === undefined ? { 'user-agent': BROWSER } : options.ua ? { 'user-agent': options.ua } : {}), ...(options.host ? { host: options.host } : {}) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body, type: res.headers['content-type'] }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Issue 33, "Tracked links" (docs/links.md): URLs of a send become short links on LINK_BASE_URL, the
 * redirect answers 302 only for codes a send made, counts clicks of people (not previewers, not HEAD),
 * publishes message.clicked once per link, and organizations can opt out or use their own verified domain.
 */
describe('HTTP: tracked links, the redirect and click counting', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dns: TinyDnsServer;
  let owner: TestTenant;
  let other: TestTenant;
  const sms = new RecordingProvider('SMS', 'links-sms');
  const email = new RecordingProvider('EMAIL', 'links-email');
  const storage = () => app.container.get(INFRA.storage);
  const flush = () => app.container.get(LINKS.redirects).follow.flush();

  async function topUp(tenant: TestTenant): Promise<void> {
    await storage().wallets.update(tenant.organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
  }
  async function send(tenant: TestTenant, body: Record<string, unknown>) {
    const res = await app.api.post('/messages/send', { channel: 'SMS', to: '024 300 0001', ...body }, tenant.auth);
    expect(res.status, res.text).to.be.oneOf([201, 202]);
    return { id: res.body.data.id as string, body: (await storage().messages.findById(tenant.organizationId, res.body.data.id))!.body };
  }
  const codesIn = (text: string) => [...text.matchAll(/http:\/\/localhost:3000\/l\/([0-9A-Za-z]{12})/g)].map((m) => m[1]!);

  before(async () => {
    dns = await startTinyDnsServer();
    app = await startTestApp({
      config: { linkTracking: true, dnsServers: [dns.address], retention: { messagesMonths: 13, outboundEventsMonths: 0, webhookDeliveriesDays: 0, monthsAhead: 3, auditLogDays: 0 } },
      providers: new StaticProviderDirectory([sms, email], CHANNELS.map((c) => new SandboxProvider(c, 50))),
    });
    owner = await registerTenant(app.api, 'links');
    other = await registerTenant(app.api, 'links-other');
    await topUp(owner); await topUp(other);
  });
  after(async () => { await app?.close(); await dns?.close(); });

  it('replaces the URLs of an SMS by short links that redirect with 302 to the original, and records one link per (message, URL)', async () => {
    const sent = await send(owner, { body: 'Track your order: https://shop.example.com.gh/orders/42?ref=sms. Help: https://shop.example.com.gh/help' });
    const codes = codesIn(sent.body);
    expect(codes).to.have.length(2);
    expect(sent.body).to.match(/^Track your order: http:\/\/localhost:3000\/l\/\w{12}\. Help: http:\/\/localhost:3000\/l\/\w{12}$/);
    expect(sms.received.find((m) => m.messageId === sent.id)?.body).to.equal(sent.body); // what the vendor got
    const links = await storage().trackedLinks.listForMessage(owner.organizationId, sent.id);
    expect(links.map((l) => l.url).sort()).to.deep.equal(['https://shop.example.com.gh/help', 'https://shop.example.com.gh/orders/42?ref=sms']);
    expect(links[0]!.expiresAt!.getTime() - links[0]!.createdAt.getTime()).to.be.greaterThan(390 * 86_400_000); // 13 months of retention
    const redirect = await hit(app, `/l/${codes[0]}`);
    expect(redirect.status).to.equal(302);
    expect(redirect.location).to.equal('https://shop.example.com.gh/orders/42?ref=sms');
  });

  it('answers 404 with a page for an unknown, malformed or expired code: only links a send made resolve (no open redirect)', async () => {
    expect((await hit(app, `/l/${new RandomLinkCodes().next()}`)).status).to.equal(404);
    const bad = await hit(app, '/l/https%3A%2F%2Fevil.example');
    expect(bad.status).to.equal(404);
    expect(bad.type).to.match(/text\/html/);
    const code = new RandomLinkCodes().next();
    await storage().trackedLinks.insertMany([{ code, organizationId: owner.organizationId, messageId: randomUUID(), templateId: null, url: 'https://old.example/',
      createdAt: new Date(Date.now() - 3_600_000), expiresAt: new Date(Date.now() - 1_000) }]);
    expect((await hit(app, `/l/${code}`)).status).to.equal(404);
  });

  it('counts GET clicks of browsers (unique once per client in the window), not HEAD nor link previewers, and publishes message.clicked once', async () => {
    const sent = await send(owner, { body: 'Offer https://shop.example.com.gh/sale' });
    const [code] = codesIn(sent.body);
    for (const ua of ['WhatsApp/2.24.1 A', 'facebookexternalhit/1.1', 'Slackbot-LinkExpanding 1.0', 'TelegramBot (like TwitterBot)', 'curl/8.5.0', '']) {
      expect((await hit(app, `/l/${code}`, { ua })).status).to.equal(302);
    }
    expect((await hit(app, `/l/${code}`, { method: 'HEAD' })).status).to.equal(302);
    await flush();
    expect((await storage().trackedLinks.listForMessage(owner.organizationId, sent.id))[0]).to.include({ clicks: 0, uniqueClicks: 0 });
    const clicked = async () => (await storage().outboundEvents.listRecent(owner.organizationId, 50)).filter((e) => e.kind === 'message.clicked' && e.data['messageId'] === sent.id);
    expect(await clicked()).to.have.length(0);

    await hit(app, `/l/${code}`);
    await hit(app, `/l/${code}`); // the same client again: a click, not a unique one
    await flush();
    await hit(app, `/l/${code}`);
    await flush();
    expect((await storage().trackedLinks.listForMessage(owner.organizationId, sent.id))[0]).to.include({ clicks: 3, uniqueClicks: 1 });
    const events = await clicked();
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({ messageId: sent.id, url: 'https://shop.example.com.gh/sale', code });
    expect((await storage().outboundEvents.listRecent(other.organizationId, 50)).filter((e) => e.kind === 'message.clicked')).to.have.length(0);
    const endpoint = await app.api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/nkra', events: ['message.clicked'] }, owner.auth);
    expect(endpoint.status, endpoint.text).to.equal(201);
  });

  it('tracks only hrefs of an HTML email, adds the open pixel when opens are on, and counts the open', async () => {
    expect((await app.api.patch('/links/settings', { trackEmailOpens: true }, owner.auth)).body.data).to.include({ trackEmailOpens: true, trackLinks: true });
    const res = await app.api.post('/messages/send', { channel: 'EMAIL', to: 'ama@example.com', subject: 'Sale',
      body: '<p>See <a href="https://shop.example.com.gh/sale?a=1&amp;b=2">https://shop.example.com.gh/sale</a></p>' }, owner.auth);
    expect(res.status, res.text).to.be.oneOf([201, 202]);
    const body = (await storage().messages.findById(owner.organizationId, res.body.data.id))!.body;
    expect(body).to.include('>https://shop.example.com.gh/sale</a>');
    const pixel = /\/l\/o\/(\w{12})\.gif/.exec(body)![1]!;
    const [code] = codesIn(body);
    expect((await hit(app, `/l/${code}`)).location).to.equal('https://shop.example.com.gh/sale?a=1&b=2');
    const open = await hit(app, `/l/o/${pixel}.gif`);
    expect(open).to.include({ status: 200, type: 'image/gif' });
    expect((await hit(app, `/l/${pixel}`)).status).to.equal(404); // a pixel code never redirects
    await flush();
    expect((await storage().outboundEvents.listRecent(owner.organizationId, 50)).filter((e) => e.kind === 'message.opened').map((e) => e.data['messageId'])).to.deep.equal([res.body.data.id]);
    await app.api.patch('/links/settings', { trackEmailOpens: false }, owner.auth);
  });

  it('leaves URLs alone for an organization that turned tracking off and for a template it opted out', async () => {
    const template = await app.api.post('/templates', { name: 'Receipt', channel: 'SMS', body: 'Receipt: https://shop.example.com.gh/r/{{ id }}' }, other.auth);
    expect(template.status, template.text).to.equal(201);
    expect((await app.api.patch('/links/settings', { untrackedTemplateIds: ['nope'] }, other.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await app.api.patch('/links/settings', { untrackedTemplateIds: [template.body.data.id] }, other.auth)).status).to.equal(200);
    expect((await send(other, { templateId: template.body.data.id, variables: { id: '7' } })).body).to.equal('Receipt: https://shop.example.com.gh/r/7');
    expect(codesIn((await send(other, { body: 'x https://a.example/y' })).body)).to.have.length(1);
    expect((await app.api.patch('/links/settings', { trackLinks: false }, other.auth)).body.data.trackLinks).to.equal(false);
    const settings = await app.api.get('/links/settings', other.auth);
    expect(settings.body.data).to.include({ trackLinks: false, linkBase: 'http://localhost:3000/l' });
  });

  it('verifies a custom link domain by DNS TXT (DOMAIN_NOT_VERIFIED until then, DOMAIN_TAKEN for another organization) and resolves only its own codes there', async () => {
    const domain = `go-${randomUUID().slice(0, 8)}.test`;
    expect((await app.api.post('/links/settings/domain/verify', {}, owner.auth)).body.error.code).to.equal('NOT_FOUND');
    expect((await app.api.patch('/links/settings', { customDomain: 'not a host' }, owner.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    const set = await app.api.patch('/links/settings', { customDomain: domain.toUpperCase() }, owner.auth);
    expect(set.body.data.customDomain).to.include({ domain, verified: false, recordName: `_nkra-links.${domain}` });
    const missing = await app.api.post('/links/settings/domain/verify', {}, owner.auth);
    expect(missing.status).to.equal(422);
    expect(missing.body.error.code).to.equal('DOMAIN_NOT_VERIFIED');
    dns.txt.set(set.body.data.customDomain.recordName, [set.body.data.customDomain.recordValue]);
    const verified = await app.api.post('/links/settings/domain/verify', {}, owner.auth);
    expect(verified.status, verified.text).to.equal(200);
    expect(verified.body.data).to.deep.include({ linkBase: `https://${domain}/l` });
    const taken = await app.api.patch('/links/settings', { customDomain: domain }, other.auth);
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('DOMAIN_TAKEN');

    // Another organization's code does not resolve on this domain; the platform host still serves every code.
    const otherCode = codesIn((await send(other, { body: 'x https://b.example/z' })).body);
    expect(otherCode).to.have.length(0); // tracking is off for `other` since the previous test
    const theirs = new RandomLinkCodes().next();
    await storage().trackedLinks.insertMany([{ code: theirs, organizationId: other.organizationId, messageId: randomUUID(), templateId: null, url: 'https://b.example/z', createdAt: new Date(), expiresAt: null }]);
    const branded = await send(owner, { body: 'x https://b.example/brand' });
    const brandedCode = new RegExp(`https://${domain.replace(/\./g, '\\.')}/l/(\\w{12})`).exec(branded.body)?.[1];
    expect(brandedCode, branded.body).to.be.a('string');
    expect((await hit(app, `/l/${brandedCode}`, { host: domain })).status).to.equal(302);
    expect((await hit(app, `/l/${theirs}`, { host: domain })).status).to.equal(404);
    expect((await hit(app, `/l/${theirs}`, { host: 'localhost:3000' })).status).to.equal(302);
  });

  it('shows the click rate per template', async () => {
    const template = await app.api.post('/templates', { name: 'Promo', channel: 'SMS', body: 'Promo: https://shop.example.com.gh/p' }, owner.auth);
    const sentA = await send(owner, { templateId: template.body.data.id });
    await send(owner, { templateId: template.body.data.id, to: '024 300 0002' });
    const code = /\/l\/(\w{12})/.exec(sentA.body)![1]!;
    await hit(app, `/l/${code}`, { host: 'localhost:3000' });
    await flush();
    const rates = await app.api.get('/analytics/clicks?by=template', owner.auth);
    expect(rates.status, rates.text).to.equal(200);
    expect(rates.body.data.items.find((i: { templateId: string }) => i.templateId === template.body.data.id)).to.deep.equal({
      templateId: template.body.data.id, messages: 2, clickedMessages: 1, clicks: 1, uniqueClicks: 1, clickRate: 0.5 });
    expect((await app.api.get('/analytics/clicks?by=country', owner.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    const byLocale = await app.api.get('/analytics/clicks?by=locale', owner.auth);
    expect(byLocale.status, byLocale.text).to.equal(200);
    expect(byLocale.body.data.by).to.equal('locale');
    expect((await app.api.get('/analytics/clicks?by=campaign', other.auth)).body.data.items).to.deep.equal([]);
  });
});
