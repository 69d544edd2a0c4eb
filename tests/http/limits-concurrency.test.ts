import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

type Answer = { status: number; body: { data?: unknown; error?: { code: string } } };

/** Statuses and error codes of a burst of answers, counted: `{ '201': 10, '422 LIMIT_REACHED': 20 }`. */
function tally(answers: readonly Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status < 300 ? String(a.status) : `${a.status} ${a.body.error?.code ?? '?'}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * Per-organization limits under concurrency (issue 28 item 7, docs/architecture.md "Limits"): a burst of
 * creates at once lands exactly the limit, the rest answer the documented error, and the list shows
 * exactly the ones created. Before the limits were counted under a lock, 30 concurrent creates gave 28
 * vendor accounts (limit 10), sender IDs 25 of 20 and keywords 55 of 50.
 */
describe('HTTP: per-organization limits hold under concurrent creates', function () {
  this.timeout(120_000);
  let app: TestApp;
  let tenant: TestTenant;

  before(async () => {
    app = await startTestApp({ config: { vendorBaseUrls: { 'arkesel-sms': 'http://127.0.0.1:9' } } });
    tenant = await registerTenant(app.api, 'limits-race');
  });
  after(async () => { await app?.close(); });

  const burst = (n: number, create: (i: number) => Promise<Answer>) => Promise.all(Array.from({ length: n }, (_, i) => create(i)));

  it('vendor accounts: of 30 at once, 10 are created, 20 answer 422 LIMIT_REACHED, and the list shows the 10', async () => {
    const answers = await burst(30, (i) => app.api.post('/vendor-accounts', {
      name: `race-${i}`, vendor: 'arkesel-sms', settings: { senderId: 'ACME' }, credentials: { apiKey: `key-${i}` },
    }, tenant.auth));
    expect(tally(answers)).to.deep.equal({ 201: 10, '422 LIMIT_REACHED': 20 });
    const listed = (await app.api.get('/vendor-accounts', tenant.auth)).body.data.items as Array<{ name: string }>;
    expect(listed.map((a) => a.name).sort()).to.deep.equal(answers.flatMap((a) => (a.status === 201 ? [(a.body.data as { name: string }).name] : [])).sort());
  });

  it('sender IDs: of 30 at once, 20 are requested, 10 answer 422 LIMIT_REACHED, and the list shows the 20', async () => {
    const answers = await burst(30, (i) => app.api.post('/sender-ids', { name: `Race ${i}`, purpose: 'Order updates', sampleMessage: 'Your order is ready' }, tenant.auth));
    expect(tally(answers)).to.deep.equal({ 201: 20, '422 LIMIT_REACHED': 10 });
    const listed = (await app.api.get('/sender-ids', tenant.auth)).body.data.items as Array<{ name: string }>;
    expect(listed).to.have.length(20);
    expect(listed.map((s) => s.name).sort()).to.deep.equal(answers.flatMap((a) => (a.status === 201 ? [(a.body.data as { name: string }).name] : [])).sort());
  });

  it('keywords: of 100 at once, 50 are created, 50 answer 422 LIMIT_REACHED, and the list shows the 50', async () => {
    const answers = await burst(100, (i) => app.api.post('/conversations/keywords', { keyword: `race${i}`, action: 'AUTO_REPLY', replyText: 'Open 8 to 5' }, tenant.auth));
    expect(tally(answers)).to.deep.equal({ 201: 50, '422 LIMIT_REACHED': 50 });
    const listed = (await app.api.get('/conversations/keywords', tenant.auth)).body.data.items as Array<{ keyword: string }>;
    expect(listed).to.have.length(50);
  });

  it('webhook endpoints: of 30 at once, 20 are created, 10 answer 400 VALIDATION_ERROR; a re-activation past the limit is refused too', async () => {
    const answers = await burst(30, (i) => app.api.post('/webhook-endpoints', { url: `http://127.0.0.1:9/hook-${i}`, events: [] }, tenant.auth));
    expect(tally(answers)).to.deep.equal({ 201: 20, '400 VALIDATION_ERROR': 10 });
    const listed = (await app.api.get('/webhook-endpoints', tenant.auth)).body.data as Array<{ id: string; isActive: boolean }>;
    expect(listed.filter((e) => e.isActive)).to.have.length(20);
    const paused = listed[0]!.id;
    expect((await app.api.patch(`/webhook-endpoints/${paused}`, { isActive: false }, tenant.auth)).status).to.equal(200);
    expect((await app.api.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hook-late', events: [] }, tenant.auth)).status).to.equal(201);
    const reactivated = await app.api.patch(`/webhook-endpoints/${paused}`, { isActive: true }, tenant.auth);
    expect(reactivated.status).to.equal(400);
    expect(reactivated.body.error.code).to.equal('VALIDATION_ERROR');
    expect(((await app.api.get('/webhook-endpoints', tenant.auth)).body.data as Array<{ isActive: boolean }>).filter((e) => e.isActive)).to.have.length(20);
  });
});
