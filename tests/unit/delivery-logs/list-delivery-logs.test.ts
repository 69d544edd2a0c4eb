import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { DELIVERY_LOG_LIST_WINDOW, ListDeliveryLogs } from '../../../core/use-cases/delivery-logs/list-delivery-logs.ts';
import { buildCore } from '../../support/build-core.ts';
import { buildMessage } from './delivery-log-fixtures.ts';

const ORG = 'org-logs';
const OTHER = 'org-other';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try { await promise; } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected the call to fail');
}

/** 45 logs, one per second: every 5th FAILED, every 9th a VOICE call, the rest delivered SMS. */
async function seeded() {
  const core = buildCore();
  const messages = Array.from({ length: 45 }, (_, i) => buildMessage(ORG, i, {
    id: `m-${String(i).padStart(3, '0')}`,
    ...(i % 5 === 0 ? { status: 'FAILED' as const, errorCode: 'PROVIDER_REJECTED' } : {}),
    ...(i % 9 === 0 ? { channel: 'VOICE' as const } : {}),
  }));
  await core.storage.messages.insertMany([...messages, buildMessage(OTHER, 100, { id: 'other-newest' })]);
  return { core, list: new ListDeliveryLogs(core) };
}

describe('ListDeliveryLogs', () => {
  it('lists the newest 20 first with the pagination envelope by default', async () => {
    const { list } = await seeded();
    const page = await list.execute(ORG, {});
    expect(page).to.include({ page: 1, limit: 20, total: 45, totalIsExact: true, totalPages: 3 });
    expect(page.items.map((i) => i['id'])).to.deep.equal(Array.from({ length: 20 }, (_, i) => `m-${String(44 - i).padStart(3, '0')}`));
    expect(page.items[0]).to.include({ id: 'm-044', status: 'DELIVERED', channel: 'SMS', recipient: '+233241234567', cost: 0.05 });
  });

  it('answers page 2 with the next logs and the last page with the remainder', async () => {
    const { list } = await seeded();
    const second = await list.execute(ORG, { page: '2' });
    expect(second.items.map((i) => i['id'])[0]).to.equal('m-024');
    expect(second.items).to.have.length(20);
    const last = await list.execute(ORG, { page: '3' });
    expect(last.items.map((i) => i['id'])).to.deep.equal(['m-004', 'm-003', 'm-002', 'm-001', 'm-000']);
    const beyond = await list.execute(ORG, { page: '4' });
    expect(beyond).to.include({ total: 45, totalPages: 3 });
    expect(beyond.items).to.deep.equal([]);
  });

  it('orders logs created in the same instant by id, descending, so pages never overlap', async () => {
    const core = buildCore();
    await core.storage.messages.insertMany(['b', 'c', 'a'].map((id) => buildMessage(ORG, 0, { id })));
    const list = new ListDeliveryLogs(core);
    const ids = [1, 2, 3].map(async (page) => (await list.execute(ORG, { page: String(page), limit: '1' })).items[0]!['id']);
    expect(await Promise.all(ids)).to.deep.equal(['c', 'b', 'a']);
  });

  it('filters by status, by channel, and by both; REJECTED is a valid filter', async () => {
    const { core, list } = await seeded();
    const failed = await list.execute(ORG, { status: 'FAILED', limit: '100' });
    expect(failed.total).to.equal(9);
    expect(failed.items.every((i) => i['status'] === 'FAILED' && i['errorCode'] === 'PROVIDER_REJECTED')).to.equal(true);
    const voice = await list.execute(ORG, { channel: 'VOICE', limit: '100' });
    expect(voice.items.map((i) => i['id'])).to.deep.equal(['m-036', 'm-027', 'm-018', 'm-009', 'm-000']);
    const both = await list.execute(ORG, { status: 'FAILED', channel: 'VOICE' });
    expect(both.items.map((i) => i['id'])).to.deep.equal(['m-000']);
    await core.storage.messages.insertMany([buildMessage(ORG, 50, { id: 'blocked', status: 'REJECTED', errorCode: 'FRAUD_PREMIUM_RATE', cost: 0 })]);
    const rejected = await list.execute(ORG, { status: 'REJECTED' });
    expect(rejected.items.map((i) => [i['id'], i['errorCode'], i['cost']])).to.deep.equal([['blocked', 'FRAUD_PREMIUM_RATE', 0]]);
  });

  it('never lists another organization\'s logs', async () => {
    const { list } = await seeded();
    const page = await list.execute(ORG, { limit: '100' });
    expect(page.total).to.equal(45);
    expect(page.items.map((i) => i['id'])).to.not.include('other-newest');
    const other = await list.execute(OTHER, {});
    expect(other.items.map((i) => i['id'])).to.deep.equal(['other-newest']);
  });

  it('rejects limit 101, limit 0, page 0, non-numbers and unknown enum values with VALIDATION_ERROR naming the field', async () => {
    const { list } = await seeded();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ limit: '101' }, 'limit', 'must be at most 100'],
      [{ limit: '0' }, 'limit', 'must be at least 1'],
      [{ page: '0' }, 'page', 'must be at least 1'],
      [{ page: '-1' }, 'page', 'must be a whole number'],
      [{ page: '1.5' }, 'page', 'must be a whole number'],
      [{ limit: 'ten' }, 'limit', 'must be a whole number'],
      [{ status: 'BOGUS' }, 'status', 'must be one of QUEUED, SENT, DELIVERED, FAILED, PENDING, REJECTED, SCHEDULED, CANCELLED'],
      [{ status: 'delivered' }, 'status', 'must be one of'],
      [{ channel: 'FAX' }, 'channel', 'must be one of SMS, WHATSAPP, EMAIL, PUSH, VOICE, IN_APP'],
      [{ status: ['SENT', 'FAILED'] }, 'status', 'must be one of'],
    ];
    for (const [query, field, message] of cases) {
      const error = await rejection(list.execute(ORG, query));
      expect(error.code, JSON.stringify(query)).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors'], JSON.stringify(query)).to.have.all.keys(field);
      expect((error.details['fieldErrors'] as Record<string, string[]>)[field]![0]).to.include(message);
    }
  });

  it('treats blank parameters as absent and ignores unknown ones', async () => {
    const { list } = await seeded();
    const page = await list.execute(ORG, { page: '', limit: '', status: '', channel: '', organizationId: OTHER, sort: 'asc' });
    expect(page).to.include({ page: 1, limit: 20, total: 45 });
  });

  it('pages only into the newest 10,000 matching logs: page 500 of 20 is allowed, page 501 is a VALIDATION_ERROR', async () => {
    const { list } = await seeded();
    expect((await list.execute(ORG, { page: '500' })).items).to.deep.equal([]);
    expect((await list.execute(ORG, { page: '100', limit: '100' })).items).to.deep.equal([]);
    const error = await rejection(list.execute(ORG, { page: '501' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect((error.details['fieldErrors'] as Record<string, string[]>)['page']![0]).to.match(/^must be at most 500 with limit 20/);
    const odd = await rejection(list.execute(ORG, { page: '335', limit: '30' }));
    expect((odd.details['fieldErrors'] as Record<string, string[]>)['page']![0]).to.match(/^must be at most 334 with limit 30/);
  });

  it('counts up to 10,000 matches: beyond, total is 10000 with totalIsExact false and the reachable pages', async () => {
    const core = buildCore();
    await core.storage.messages.insertMany(Array.from({ length: DELIVERY_LOG_LIST_WINDOW + 1 }, (_, i) => buildMessage(ORG, i)));
    const list = new ListDeliveryLogs(core);
    expect(await list.execute(ORG, { limit: '100' })).to.include({ total: 10_000, totalIsExact: false, totalPages: 100 });
    const filtered = await list.execute(ORG, { channel: 'SMS', status: 'DELIVERED' });
    expect(filtered).to.include({ total: 10_000, totalIsExact: false, totalPages: 500 });
    const deepest = await list.execute(ORG, { page: '500' });
    expect(deepest.items).to.have.length(20);
    expect(deepest.items[19]!['id']).to.not.equal(undefined);
    expect(await list.execute(ORG, { status: 'FAILED' })).to.include({ total: 0, totalIsExact: true, totalPages: 0 });
  });
});
