import { expect } from 'chai';
import type { Message } from '../../core/domain/message.ts';
import { DELIVERY_LOG_CSV_COLUMNS } from '../../core/use-cases/delivery-logs/delivery-log-csv.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { buildMessage, parseCsv } from '../unit/delivery-logs/delivery-log-fixtures.ts';

const HEADER = DELIVERY_LOG_CSV_COLUMNS.join(',');

describe('HTTP: GET /delivery-logs and /delivery-logs/export', () => {
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  /** 25 logs of the owner: every 4th FAILED, every 5th a WHATSAPP message. */
  let logs: Message[];

  async function insert(messages: readonly Message[]): Promise<void> {
    const storage = app.container.get(INFRA.storage);
    for (let i = 0; i < messages.length; i += 1_000) await storage.messages.insertMany(messages.slice(i, i + 1_000));
  }

  const newestFirst = (messages: readonly Message[]) => [...messages]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((m) => m.id);

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'logs');
    other = await registerTenant(app.api, 'logs-other');
    logs = Array.from({ length: 25 }, (_, i) => buildMessage(owner.organizationId, i, {
      ...(i % 4 === 0 ? { status: 'FAILED' as const, errorCode: 'PROVIDER_REJECTED', deliveredAt: null } : {}),
      ...(i % 5 === 0 ? { channel: 'WHATSAPP' as const } : {}),
    }));
    await insert([...logs, buildMessage(other.organizationId, 100, { recipient: '+233209999999' })]);
  });
  after(async () => { await app.close(); });

  it('GET /delivery-logs answers the newest 20 with { items, page, limit, total, totalIsExact, totalPages }', async () => {
    const res = await app.api.get('/delivery-logs', owner.auth);
    expect(res.status, res.text).to.equal(200);
    const data = res.body.data;
    expect(data).to.include({ page: 1, limit: 20, total: 25, totalIsExact: true, totalPages: 2 });
    expect(data.items.map((i: { id: string }) => i.id)).to.deep.equal(newestFirst(logs).slice(0, 20));
    expect(data.items[0]).to.include({ status: 'FAILED', errorCode: 'PROVIDER_REJECTED', channel: 'SMS', recipient: '+233241234567', cost: 0.05 });
    expect(data.items[1]).to.include({ status: 'DELIVERED', channel: 'SMS', segments: 1, deliveredAt: '2026-03-01T08:00:26.000Z' });
  });

  it('answers page 2 with the rest, in the same stable order', async () => {
    const res = await app.api.get('/delivery-logs?page=2&limit=10', owner.auth);
    expect(res.body.data).to.include({ page: 2, limit: 10, total: 25, totalPages: 3 });
    expect(res.body.data.items.map((i: { id: string }) => i.id)).to.deep.equal(newestFirst(logs).slice(10, 20));
  });

  it('filters by status and channel together', async () => {
    const res = await app.api.get('/delivery-logs?status=FAILED&channel=WHATSAPP', owner.auth);
    const expected = logs.filter((m) => m.status === 'FAILED' && m.channel === 'WHATSAPP');
    expect(res.body.data).to.include({ total: expected.length });
    expect(res.body.data.items.map((i: { id: string }) => i.id)).to.deep.equal(newestFirst(expected));
    const failed = await app.api.get('/delivery-logs?status=FAILED', owner.auth);
    expect(failed.body.data.total).to.equal(7);
  });

  it('answers 400 VALIDATION_ERROR with fieldErrors for limit 101, page 0 and status BOGUS', async () => {
    for (const [query, field] of [['limit=101', 'limit'], ['page=0', 'page'], ['status=BOGUS', 'status'], ['channel=FAX', 'channel'], ['page=501', 'page']]) {
      const res = await app.api.get(`/delivery-logs?${query}`, owner.auth);
      expect(res.status, query).to.equal(400);
      expect(res.body.error.code, query).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.fieldErrors, query).to.have.all.keys(field!);
      expect(res.body.error.details.formErrors).to.deep.equal([]);
    }
  });

  it('shows each organization only its own logs', async () => {
    const res = await app.api.get('/delivery-logs', other.auth);
    expect(res.body.data).to.include({ total: 1 });
    expect(res.body.data.items[0].recipient).to.equal('+233209999999');
    const forbidden = await app.api.get('/delivery-logs', { token: other.token, organizationId: owner.organizationId });
    expect(forbidden.status).to.equal(403);
  });

  it('GET /delivery-logs/export answers a CSV attachment: header row, quoted and neutralised cells, own rows only', async () => {
    const tenant = await registerTenant(app.api, 'csv');
    await insert([
      buildMessage(tenant.organizationId, 1, { id: 'csv-1', channel: 'EMAIL', recipient: 'ama,"kofi"@example.com', status: 'FAILED', errorMessage: 'bad\r\nline' }),
      buildMessage(tenant.organizationId, 2, { id: 'csv-2', status: 'FAILED', errorMessage: '=HYPERLINK("http://evil.example")' }),
    ]);
    const res = await app.api.get('/delivery-logs/export', tenant.auth);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="delivery-logs-\d{8}-\d{6}Z\.csv"$/);
    expect(res.headers.get('x-export-truncated')).to.equal('false');
    expect(res.text.split('\r\n')[0]).to.equal(HEADER);
    const rows = parseCsv(res.text).slice(1);
    expect(rows.map((r) => r[0])).to.deep.equal(['csv-2', 'csv-1']);
    expect(rows.every((r) => r.length === DELIVERY_LOG_CSV_COLUMNS.length)).to.equal(true);
    expect(rows[0]![4]).to.equal("'+233241234567");
    expect(rows[0]![7]).to.equal('\'=HYPERLINK("http://evil.example")');
    expect(rows[1]!.slice(4, 8)).to.deep.equal(['ama,"kofi"@example.com', 'FAILED', '', 'bad\r\nline']);
    expect(res.text).to.not.include('+233209999999');
  });

  it('GET /delivery-logs/export filters, and rejects a bad filter with 400 VALIDATION_ERROR as JSON', async () => {
    const res = await app.api.get('/delivery-logs/export?status=FAILED&channel=WHATSAPP', owner.auth);
    expect(res.headers.get('content-disposition')).to.match(/-failed-whatsapp\.csv"$/);
    expect(parseCsv(res.text).slice(1).map((r) => r[0])).to.deep.equal(newestFirst(logs.filter((m) => m.status === 'FAILED' && m.channel === 'WHATSAPP')));
    const bad = await app.api.get('/delivery-logs/export?status=BOGUS', owner.auth);
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.deep.include({ code: 'VALIDATION_ERROR' });
    expect(bad.body.error.details.fieldErrors).to.have.all.keys('status');
  });

  describe('with more than 10,000 logs', () => {
    let big: TestTenant;
    let bigLogs: Message[];
    before(async function () {
      this.timeout(120_000);
      big = await registerTenant(app.api, 'logs-big');
      // Three logs per second: chunk boundaries of the export fall between logs of the same instant.
      bigLogs = Array.from({ length: 10_050 }, (_, i) => buildMessage(big.organizationId, Math.floor(i / 3), { id: `big-${String(i).padStart(5, '0')}-${i % 7}` }));
      await insert(bigLogs);
    });

    it('counts up to 10,000: total 10000, totalIsExact false, 500 pages of 20, the deepest one answered', async () => {
      const res = await app.api.get('/delivery-logs', big.auth);
      expect(res.body.data).to.include({ total: 10_000, totalIsExact: false, totalPages: 500 });
      const deepest = await app.api.get('/delivery-logs?page=500', big.auth);
      expect(deepest.body.data.items.map((i: { id: string }) => i.id)).to.deep.equal(newestFirst(bigLogs).slice(9_980, 10_000));
    });

    it('streams the newest 10,000 rows, each once, in order, chunked, and says it was truncated', async () => {
      const res = await fetch(`${app.url}/delivery-logs/export`, { headers: { authorization: `Bearer ${big.token}`, 'x-organization-id': big.organizationId } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('transfer-encoding')).to.equal('chunked');
      expect(res.headers.get('content-length')).to.equal(null);
      expect(res.headers.get('x-export-truncated')).to.equal('true');
      let text = '';
      let reads = 0;
      const decoder = new TextDecoder();
      for await (const piece of res.body!) { text += decoder.decode(piece, { stream: true }); reads += 1; }
      expect(reads, 'arrived in several pieces').to.be.greaterThan(1);
      const rows = parseCsv(text);
      expect(rows[0]!.join(',')).to.equal(HEADER);
      expect(rows.slice(1).map((r) => r[0])).to.deep.equal(newestFirst(bigLogs).slice(0, 10_000));
    });
  });
});
