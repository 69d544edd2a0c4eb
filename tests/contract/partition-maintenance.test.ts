import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { DEFAULT_RETENTION, PostgresPartitionMaintenance, type RetentionSettings } from '../../adapters/postgres/partition-maintenance.ts';
import type { ArchiveTarget } from '../../adapters/archive/archive-target.ts';
import { DirectoryArchiveTarget } from '../../adapters/archive/directory-archive-target.ts';
import { scratchDatabase, type ScratchDatabase } from '../support/processes.ts';
import { NOW, ago, clock, count, key, message } from '../support/partitioned-messages.ts';

const stats = (db: Database) => db.em().execute(`select organization_id, day::text, status, sum(messages)::int as n, sum(cost)::int as cost
  from message_daily_stats group by 1, 2, 3 having sum(messages) <> 0 order by 1, 2, 3`);

describe('partition maintenance and retention (PostgresPartitionMaintenance)', function () {
  this.timeout(120_000);
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(kind, () => {
      let db: Database;
      let scratch: ScratchDatabase | null = null;
      const maintenance = (settings: Partial<RetentionSettings> = {}, archive: ArchiveTarget | null = null) =>
        new PostgresPartitionMaintenance(db, clock, { ...DEFAULT_RETENTION, ...settings }, archive);
      beforeEach(async function () {
        scratch = await scratchDatabase(kind, 'nkra_partition_maintenance');
        if (!scratch) this.skip();
        db = scratch.db;
        await migrate(db);
        await db.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values
          ('org-a', 'A', 'UTC', 'en', now(), now()), ('org-short', 'S', 'UTC', 'en', now(), now())`);
      });
      afterEach(async () => {
        await scratch?.close();
        scratch = null;
      });

      it('creates the months ahead for every partitioned table, once, even when two processes run it at once', async () => {
        const runs = await Promise.all([maintenance({ monthsAhead: 6 }).run(), maintenance({ monthsAhead: 6 }).run()]);
        const created = runs.flatMap((r) => r.created);
        for (const t of ['messages', 'message_attempts', 'message_status_events', 'outbound_events']) {
          expect(created.filter((c) => c === `${t}_p${key(ago(-6, 1))}`), t).to.have.length(1);
        }
        expect(runs.some((r) => r.ran)).to.equal(true);
        expect((await maintenance({ monthsAhead: 6 }).run()).created).to.deep.equal([]);
      });

      it('drops a whole expired month of messages, attempts and status events; the analytics roll-ups stay', async () => {
        const old = await message(db, 'org-a', ago(14));
        const kept = await message(db, 'org-a', ago(12));
        const before = await stats(db);
        const report = await maintenance({ messagesMonths: 13 }).run();
        expect(report.dropped).to.include.members([`messages_p${key(ago(14))}`, `message_attempts_p${key(ago(14))}`, `message_status_events_p${key(ago(14))}`]);
        expect(report.dropped.some((d) => d.endsWith(key(ago(12))))).to.equal(false);
        expect(await count(db, 'select count(*) from messages where id = ?', [old])).to.equal(0);
        expect(await count(db, 'select count(*) from message_attempts where message_id = ?', [old])).to.equal(0);
        expect(await count(db, 'select count(*) from messages where id = ?', [kept])).to.equal(1);
        expect(await stats(db)).to.deep.equal(before);
        // Keep forever: nothing dropped.
        await message(db, 'org-a', ago(30));
        expect((await maintenance({ messagesMonths: 0 }).run()).dropped).to.deep.equal([]);
      });

      it('detaches an expired month in its own transaction, then drops the detached tables; a run that stopped between the two is finished by the next', async () => {
        await message(db, 'org-a', ago(14));
        const report = await maintenance({ messagesMonths: 13 }).run();
        expect(report.dropped).to.include(`messages_p${key(ago(14))}`);
        expect(await count(db, 'select count(*) from detached_partitions')).to.equal(0);
        expect(await count(db, 'select count(*) from pg_class where relname = ?', [`messages_p${key(ago(14))}`])).to.equal(0);
        // A process stopped after the detach: the table and its drop_only row are left behind.
        await db.em().execute('create table messages_p201901 (like messages)');
        await db.em().execute(`insert into detached_partitions (table_name, parent_table, month, drop_only) values ('messages_p201901', 'messages', '2019-01-01', true)`);
        const next = await maintenance({ messagesMonths: 13 }, new DirectoryArchiveTarget(await mkdtemp(path.join(os.tmpdir(), 'nkra-archive-')))).run();
        expect(next.archived, 'a table detached for dropping is never archived').to.deep.equal([]);
        expect(await count(db, 'select count(*) from pg_class where relname = ?', ['messages_p201901'])).to.equal(0);
        expect(await count(db, 'select count(*) from detached_partitions')).to.equal(0);
      });

      it('reports partitions left detached for an archive once no archive target is configured, and drops them once marked drop_only', async () => {
        await message(db, 'org-a', ago(15));
        const down: ArchiveTarget = { write: async (_name, body) => { body.destroy(); throw new Error('store down'); }, read: async () => null, list: async () => [] };
        const failed = await maintenance({ messagesMonths: 13 }, down).run();
        expect(failed.archiveFailure).to.not.equal(null);
        const name = `messages_p${key(ago(15))}`;
        // The archive target removed from the configuration: nothing is dropped, and the run says what waits.
        const unconfigured = await maintenance({ messagesMonths: 13 }).run();
        expect(unconfigured.awaitingArchive).to.include(name);
        expect(unconfigured.dropped).to.not.include(name);
        expect(await count(db, 'select count(*) from pg_class where relname = ?', [name])).to.equal(1);
        // The way out of docs/operations.md when the archive is not wanted any more.
        await db.em().execute('update detached_partitions set drop_only = true where not drop_only');
        const next = await maintenance({ messagesMonths: 13 }).run();
        expect(next.awaitingArchive).to.deep.equal([]);
        expect(await count(db, 'select count(*) from pg_class where relname = ?', [name])).to.equal(0);
      });

      it('with ARCHIVE_DIR, writes each expired partition as gzip CSV before dropping it, and the file restores', async () => {
        const archiveDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-archive-'));
        const old = await message(db, 'org-a', ago(15));
        const original = await db.em().execute<Record<string, unknown>[]>('select * from messages where id = ?', [old]);
        const report = await maintenance({ messagesMonths: 13 }, new DirectoryArchiveTarget(archiveDir)).run();
        const name = `messages_p${key(ago(15))}`;
        expect(report.archived.map((f) => path.basename(f))).to.include.members([`${name}.csv.gz`, `message_attempts_p${key(ago(15))}.csv.gz`]);
        expect(await count(db, `select count(*) from pg_class where relname = ?`, [name])).to.equal(0);
        expect(await count(db, 'select count(*) from detached_partitions')).to.equal(0);
        expect((await readdir(archiveDir)).filter((f) => f.endsWith('.partial'))).to.deep.equal([]);
        const csv = gunzipSync(await readFile(path.join(archiveDir, `${name}.csv.gz`))).toString('utf8');
        expect(csv.split('\n')[0]).to.match(/^id,organization_id,internal_message_id,/);
        if (kind === 'pglite') {
          // The restore of docs/operations.md: a table like messages, COPY ... FROM the CSV, attach.
          const month = `${ago(15).toISOString().slice(0, 7)}-01`;
          await db.em().execute(`create table ${name} (like messages including defaults including constraints)`);
          await db.pglite!.query(`copy ${name} from '/dev/blob' with (format csv, header true)`, [], { blob: new Blob([csv]) });
          await db.em().execute(`alter table messages attach partition ${name} for values from (nkra_month_bound(?::date)) to (nkra_month_bound((?::date + interval '1 month')::date))`, [month, month]);
          expect(await db.em().execute('select * from messages where id = ?', [old])).to.deep.equal(original);
        }
      });

      it('deletes the older rows of an organization with a shorter retention, keeping the roll-ups; others keep theirs', async () => {
        await db.em().execute(`insert into retention_overrides (organization_id, messages_months) values ('org-short', 2)`);
        const shortOld = await message(db, 'org-short', ago(4));
        const shortNew = await message(db, 'org-short', ago(1));
        const otherOld = await message(db, 'org-a', ago(4));
        const before = await stats(db);
        const report = await maintenance({ messagesMonths: 13 }).run();
        expect(report.deletedMessages).to.equal(1);
        expect(await count(db, 'select count(*) from messages where id in (?, ?, ?)', [shortOld, shortNew, otherOld])).to.equal(2);
        expect(await count(db, 'select count(*) from message_attempts where message_id = ?', [shortOld])).to.equal(0);
        expect(await count(db, 'select count(*) from message_status_events where message_id = ?', [shortOld])).to.equal(0);
        expect(await stats(db)).to.deep.equal(before);
      });

      it('purges webhook deliveries past their retention (platform and per organization)', async () => {
        await db.em().execute(`insert into webhook_endpoints (id, organization_id, url, is_active, secret_ciphertext, created_at, updated_at) values
          ('ep-a', 'org-a', 'https://a.example.com', true, 'x', now(), now()), ('ep-s', 'org-short', 'https://s.example.com', true, 'x', now(), now())`);
        await db.em().execute('insert into retention_overrides (organization_id, webhook_deliveries_days) values (?, 2)', ['org-short']);
        const day = 24 * 3600 * 1000;
        const rows: Array<[string, string, number]> = [['d1', 'ep-a', 40], ['d2', 'ep-a', 5], ['d3', 'ep-s', 5], ['d4', 'ep-s', 1]];
        for (const [id, ep, age] of rows) {
          await db.em().execute(`insert into webhook_deliveries (id, organization_id, endpoint_id, event_id, kind, status, created_at, updated_at)
            values (?, ?, ?, ?, 'message.sent', 'SUCCEEDED', ?, ?)`, [id, ep === 'ep-a' ? 'org-a' : 'org-short', ep, `ev-${id}`, new Date(NOW.getTime() - age * day), NOW]);
        }
        const report = await maintenance({ webhookDeliveriesDays: 30 }).run();
        expect(report.deletedWebhookDeliveries).to.equal(2);
        expect((await db.em().execute<{ id: string }[]>('select id from webhook_deliveries order by id')).map((r) => r.id)).to.deep.equal(['d2', 'd4']);
      });
    });
  }
});
