import { expect } from 'chai';
import type { Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { MikroOrmMessageRepository } from '../../adapters/postgres/mikro-orm-message-repository.ts';
import { DEFAULT_RETENTION, PostgresPartitionMaintenance, type RetentionSettings } from '../../adapters/postgres/partition-maintenance.ts';
import type { DeliveryLogFilter } from '../../core/ports/message-repository.ts';
import { scratchDatabase, type ScratchDatabase } from '../support/processes.ts';
import { v7At } from '../support/uuid-v7-at.ts';

/**
 * Counted months (migrations 0042 and 0044, docs/adr/0032-counted-months.md): once the upkeep has counted
 * the past months, every delivery-log read (page, capped total, export chunks) must answer exactly what a
 * plain query over the rows answers, whatever the filter, the depth, and whatever was written since.
 * The offsets and limits reach each way a page is read: among the newer logs alone, straddling them and
 * the counted months (shallow and deeper), from the counts of a sparse filter, and by the month walk.
 */
const NOW = new Date('2026-11-25T09:00:00Z');
const clock = { now: () => NOW };
const monthAgo = (months: number, day: number, second = 0) => new Date(Date.UTC(2026, 10 - months, day, 12, 0, second));
const partition = (months: number) => { const d = monthAgo(months, 1); return `messages_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`; };
const STATUSES = ['SENT', 'DELIVERED', 'FAILED', 'PENDING'] as const;
const CHANNELS = ['SMS', 'EMAIL', 'VOICE'] as const;
const FILTERS: DeliveryLogFilter[] = [{}, { status: 'FAILED' }, { channel: 'VOICE' }, { status: 'PENDING', channel: 'VOICE' }, { status: 'DELIVERED', channel: 'SMS' }];

let seq = 0;
async function insert(db: Database, org: string, id: string, createdAt: Date, status: string, channel: string): Promise<void> {
  await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, cost, price, segments, is_sandbox, created_at, updated_at)
    values (?, ?, ?, ?, '+233240000001', 'b', ?, 1, 1, 1, false, ?, ?)`, [id, org, `msg_${id.replace(/-/g, '')}`, channel, status, createdAt, createdAt]);
}

/** `perMonth` logs in each of the months 4..1 ago (partitions created), and `current` in this month. */
async function seed(db: Database, org: string, perMonth: number, current: number): Promise<void> {
  for (let months = 4; months >= 0; months--) {
    await db.em().execute('select nkra_create_month_partition(?, ?::date)', ['messages', monthAgo(months, 1).toISOString().slice(0, 10)]);
    const n = months === 0 ? current : perMonth;
    for (let i = 0; i < n; i++) {
      // Three logs per second: ties on created_at, broken by id.
      const at = monthAgo(months, 2 + (i % 20), Math.floor(i / 3));
      await insert(db, org, v7At(at, seq++), at, STATUSES[i % 4]!, CHANNELS[i % 3]!);
    }
  }
}

const where = (org: string, f: DeliveryLogFilter) => ({
  sql: `organization_id = ?${f.status ? ' and status = ?' : ''}${f.channel ? ' and channel = ?' : ''}`,
  params: [org, ...(f.status ? [f.status] : []), ...(f.channel ? [f.channel] : [])],
});

describe('counted months: delivery-log reads stay exact (migration 0042)', function () {
  this.timeout(180_000);
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(kind, () => {
      let db: Database;
      let scratch: ScratchDatabase | null = null;
      const upkeep = (settings: Partial<RetentionSettings> = {}) => new PostgresPartitionMaintenance(db, clock, { ...DEFAULT_RETENTION, ...settings }).run();
      const repo = () => new MikroOrmMessageRepository(db.em().fork());
      const counted = async () => (await db.em().execute<{ partition_name: string }[]>(
        'select partition_name from message_counted_months where counted order by 1')).map((r) => r.partition_name);

      /** Every read of the repository against a plain query of the rows. */
      async function expectExact(org: string, label: string): Promise<void> {
        for (const f of FILTERS) {
          const w = where(org, f);
          const ids = (await db.em().execute<{ id: string }[]>(`select id from messages where ${w.sql} order by created_at desc, id desc`, w.params)).map((r) => r.id);
          for (const [offset, limit] of [[0, 20], [0, 100], [15, 20], [30, 100], [130, 20], [150, 100], [230, 100], [290, 20], [330, 20], [590, 20], [620, 100], [700, 20], [1_200, 20], [1_230, 20], [1_250, 20]] as const) {
            const page = await repo().list(org, f, offset, limit, 10_000);
            expect(page.items.map((m) => m.id), `${label} ${JSON.stringify(f)} offset ${offset} limit ${limit}`).to.deep.equal(ids.slice(offset, offset + limit));
            expect(page.total, `${label} total ${JSON.stringify(f)}`).to.equal(ids.length);
          }
          expect((await repo().list(org, f, 0, 5, 7)).total, `${label} capped ${JSON.stringify(f)}`).to.equal(Math.min(7, ids.length));
          const streamed: string[] = [];
          for await (const m of repo().stream(org, f, 10_000)) streamed.push(m.id);
          expect(streamed, `${label} export ${JSON.stringify(f)}`).to.deep.equal(ids);
        }
      }

      beforeEach(async function () {
        scratch = await scratchDatabase(kind, 'nkra_month_counts');
        if (!scratch) this.skip();
        db = scratch.db;
        await migrate(db);
        await db.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values
          ('org-a', 'A', 'UTC', 'en', now(), now()), ('org-b', 'B', 'UTC', 'en', now(), now()), ('org-c', 'C', 'UTC', 'en', now(), now())`);
        await seed(db, 'org-a', 300, 40);
        await seed(db, 'org-b', 12, 3);
        await seed(db, 'org-c', 100, 300); // a growing organization: this month already holds more than the counted ones
      });
      afterEach(async () => {
        await scratch?.close();
        scratch = null;
      });

      it('counts the past months (not the current one), and every page, total and export stays what the rows say', async () => {
        await expectExact('org-a', 'before counting');
        const report = await upkeep();
        expect(report.counted).to.have.members([1, 2, 3, 4].map(partition));
        expect(await counted()).to.have.members([1, 2, 3, 4].map(partition));
        const [row] = await db.em().execute<{ n: string }[]>(`select messages as n from message_month_counts where organization_id = 'org-a' and status = '*' and channel = '*' and month = ?::date`,
          [monthAgo(2, 1).toISOString().slice(0, 10)]);
        expect(Number(row?.n)).to.equal(300);
        await expectExact('org-a', 'counted');
        await expectExact('org-b', 'counted, other organization');
        await expectExact('org-c', 'counted, a growing organization');
        expect((await upkeep()).counted, 'a second run has nothing to count').to.deep.equal([]);
      });

      it('a write in a counted month un-counts it in the same transaction, and a later run counts it again', async () => {
        await upkeep();
        const [victim] = await db.em().execute<{ id: string }[]>(`select id from ${partition(2)} where organization_id = 'org-a' and status = 'SENT' limit 1`);
        await db.em().execute(`update messages set status = 'FAILED' where id = ?`, [victim!.id]);
        expect(await counted()).to.not.include(partition(2));
        await expectExact('org-a', 'after an update in a gap month');
        // The newest counted month written to: the others still form one run.
        const [recent] = await db.em().execute<{ id: string }[]>(`select id from ${partition(1)} where organization_id = 'org-a' limit 1`);
        await db.em().execute('delete from messages where id = ?', [recent!.id]);
        await expectExact('org-a', 'after a delete');
        expect((await upkeep()).counted).to.have.members([partition(1), partition(2)]);
        await expectExact('org-a', 'recounted');
      });

      it('stays exact when a log sits in a month other than its created_at (a UUIDv4 or a skewed clock)', async () => {
        // Newer than every log but stored in a month 3 back, and older than every log but stored in this month.
        await insert(db, 'org-a', v7At(monthAgo(3, 5), seq++), new Date(NOW.getTime() - 1_000), 'PENDING', 'VOICE');
        await insert(db, 'org-a', v7At(monthAgo(0, 3), seq++), monthAgo(6, 1), 'DELIVERED', 'SMS');
        await upkeep();
        expect(await counted()).to.include(partition(3));
        await expectExact('org-a', 'misplaced logs');
      });

      it('dropping an expired month forgets its counts in the same transaction', async () => {
        await upkeep();
        const report = await upkeep({ messagesMonths: 3 });
        expect(report.dropped).to.include(partition(4));
        expect(await counted()).to.have.members([1, 2, 3].map(partition));
        const [left] = await db.em().execute<{ n: string }[]>('select count(*) as n from message_month_counts where month = ?::date', [monthAgo(4, 1).toISOString().slice(0, 10)]);
        expect(Number(left?.n)).to.equal(0);
        await expectExact('org-a', 'after the drop');
      });

      it('a month dropped or detached by hand (not by the upkeep) stops counting at once', async () => {
        await upkeep();
        await db.em().execute(`alter table messages detach partition ${partition(2)}`);
        await expectExact('org-a', 'detached by hand');
        await db.em().execute(`drop table ${partition(2)}`);
        await db.em().execute(`drop table ${partition(3)}`);
        await expectExact('org-a', 'dropped by hand');
      });

      it('waits for a writer still open in a past month: that month is counted on a later run', async function () {
        if (kind === 'pglite') this.skip(); // one connection: no concurrent writer
        await upkeep(); // the months ahead exist (creating one would wait for the writer too), and the past months are counted
        await db.em().execute('delete from message_counted_months where partition_name = ?', [partition(1)]); // as if never counted
        const [victim] = await db.em().execute<{ id: string }[]>(`select id from ${partition(1)} where organization_id = 'org-a' limit 1`);
        const writer = db.em().fork();
        await writer.begin();
        try {
          await writer.execute(`update messages set status = 'DELIVERED' where id = ?`, [victim!.id]);
          const first = await upkeep();
          expect(first.counted, 'the open writer holds its month back').to.deep.equal([]);
          await writer.commit();
        } finally {
          if (writer.isInTransaction()) await writer.rollback();
        }
        await expectExact('org-a', 'writer committed, its month uncounted');
        expect((await upkeep()).counted).to.deep.equal([partition(1)]);
        await expectExact('org-a', 'all counted');
      });
    });
  }
});
