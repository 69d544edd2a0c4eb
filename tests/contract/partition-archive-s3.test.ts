import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { S3ArchiveTarget } from '../../adapters/archive/s3-archive-target.ts';
import type { Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { DEFAULT_RETENTION, PostgresPartitionMaintenance } from '../../adapters/postgres/partition-maintenance.ts';
import { startFakeS3, type FakeS3 } from '../support/fake-vendors/fake-s3.ts';
import { ago, clock, count, key, manyMessages, message } from '../support/partitioned-messages.ts';
import { scratchDatabase, type ScratchDatabase } from '../support/processes.ts';

const MONTH = key(ago(15));
const FAMILY = [`message_attempts_p${MONTH}`, `message_status_events_p${MONTH}`, `messages_p${MONTH}`];
const BULK = 11_999; // with the one hand-made message: 12,000 rows, three export batches

describe('retention with an S3-compatible archive (PostgresPartitionMaintenance + S3ArchiveTarget on the local fake S3)', function () {
  this.timeout(120_000);
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(kind, () => {
      let db: Database;
      let scratch: ScratchDatabase | null = null;
      let fake: FakeS3;
      const targets: S3ArchiveTarget[] = [];
      const s3 = (secretAccessKey = fake.secretAccessKey) => {
        const target = new S3ArchiveTarget({
          bucket: fake.bucket, prefix: 'nkra-archive/', region: fake.region, endpoint: fake.url, forcePathStyle: true,
          credentials: { accessKeyId: fake.accessKeyId, secretAccessKey }, timeoutMs: 2_000, maxAttempts: 2,
        });
        targets.push(target);
        return target;
      };
      const retention = (target: S3ArchiveTarget) => new PostgresPartitionMaintenance(db, clock, { ...DEFAULT_RETENTION, messagesMonths: 13 }, target);
      const tableExists = async (name: string) => (await count(db, 'select count(*) from pg_class where relname = ?', [name])) === 1;
      const csvOf = (name: string) => gunzipSync(fake.objects.get(`nkra-archive/${name}.csv.gz`)!.body).toString('utf8');

      beforeEach(async function () {
        scratch = await scratchDatabase(kind, 'nkra_partition_archive_s3');
        if (!scratch) this.skip();
        db = scratch.db;
        await migrate(db);
        await db.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values ('org-a', 'A', 'UTC', 'en', now(), now())`);
        fake = await startFakeS3();
      });
      afterEach(async () => {
        targets.splice(0).forEach((t) => t.close());
        await fake?.close();
        await scratch?.close();
        scratch = null;
      });

      it('uploads an expired month under the prefix as gzip CSV with every row, then drops it; the object restores', async () => {
        const special = await message(db, 'org-a', ago(15));
        await manyMessages(db, 'org-a', ago(15), BULK);
        const kept = await message(db, 'org-a', ago(12));
        const ids = (await db.em().execute<{ id: string }[]>(`select id from messages_p${MONTH} order by id`)).map((r) => r.id);
        const original = await db.em().execute<Record<string, unknown>[]>('select * from messages where id = ?', [special]);

        const report = await retention(s3()).run();

        expect(report.archiveFailure).to.equal(null);
        expect(report.archived).to.have.members(FAMILY.map((t) => `s3://${fake.bucket}/nkra-archive/${t}.csv.gz`));
        expect([...fake.objects.keys()].sort()).to.deep.equal(FAMILY.map((t) => `nkra-archive/${t}.csv.gz`));
        const rows = parse(csvOf(`messages_p${MONTH}`), { columns: true }) as Array<Record<string, string>>;
        expect(rows.map((r) => r['id'])).to.deep.equal(ids);
        expect(rows.find((r) => r['id'] === special)?.['body']).to.equal('a "quoted", multi\nline body');
        expect(parse(csvOf(`message_attempts_p${MONTH}`), { columns: true })).to.have.length(BULK + 1);
        for (const table of FAMILY) expect(await tableExists(table), table).to.equal(false);
        expect(await count(db, 'select count(*) from detached_partitions')).to.equal(0);
        expect(await count(db, 'select count(*) from messages where id = ?', [kept])).to.equal(1);

        if (kind === 'pglite') {
          // docs/operations.md, "Restoring an archived month": the object as the restore reads it (GetObject), COPY, attach.
          const chunks: Buffer[] = [];
          for await (const chunk of (await s3().read(`messages_p${MONTH}.csv.gz`))!) chunks.push(chunk as Buffer);
          const month = `${ago(15).toISOString().slice(0, 7)}-01`;
          await db.em().execute(`create table messages_p${MONTH} (like messages including defaults including constraints)`);
          await db.pglite!.query(`copy messages_p${MONTH} from '/dev/blob' with (format csv, header true)`, [], { blob: new Blob([gunzipSync(Buffer.concat(chunks))]) });
          await db.em().execute(`alter table messages attach partition messages_p${MONTH} for values from (nkra_month_bound(?::date)) to (nkra_month_bound((?::date + interval '1 month')::date))`, [month, month]);
          expect(await db.em().execute('select * from messages where id = ?', [special])).to.deep.equal(original);
          expect(await count(db, `select count(*) from messages_p${MONTH}`)).to.equal(BULK + 1);
        }
      });

      it('keeps the month detached and drops nothing while the store fails; a later run with the store healthy completes it', async () => {
        await message(db, 'org-a', ago(15));
        await manyMessages(db, 'org-a', ago(15), 100);
        fake.fail({ status: 500, code: 'InternalError' });

        const failed = await retention(s3()).run();

        expect(failed.archived).to.deep.equal([]);
        expect(failed.archiveFailure?.table).to.equal(`message_attempts_p${MONTH}`);
        expect(failed.archiveFailure?.error).to.match(/^archive object s3:\/\/nkra-test-archive\/nkra-archive\/message_attempts_p\d{6}\.csv\.gz not written: InternalError \(HTTP 500\)/);
        for (const table of FAMILY) expect(await tableExists(table), table).to.equal(true);
        expect(await count(db, `select count(*) from messages_p${MONTH}`)).to.equal(101);
        expect(await count(db, 'select count(*) from detached_partitions where claimed_until is null')).to.equal(3);
        expect(await count(db, `select count(*) from messages where created_at < ?`, [ago(14)])).to.equal(0); // detached: out of the live table
        expect(fake.objects.size).to.equal(0);
        expect(fake.openUploads()).to.equal(0);

        fake.heal();
        const healed = await retention(s3()).run();

        expect(healed.archiveFailure).to.equal(null);
        expect(healed.archived).to.have.length(3);
        for (const table of FAMILY) expect(await tableExists(table), table).to.equal(false);
        expect(await count(db, 'select count(*) from detached_partitions')).to.equal(0);
        expect(parse(csvOf(`messages_p${MONTH}`), { columns: true })).to.have.length(101);
      });

      it('fails under a wrong secret with a clear error that does not contain the secret, and drops nothing', async () => {
        await message(db, 'org-a', ago(15));
        const secret = `wrong/${randomBytes(24).toString('base64url')}`;

        const report = await retention(s3(secret)).run();

        expect(report.archiveFailure?.error).to.include('SignatureDoesNotMatch (HTTP 403)').and.to.include('check the S3 access key');
        expect(JSON.stringify(report)).to.not.include(secret);
        for (const table of FAMILY) expect(await tableExists(table), table).to.equal(true);
        expect(fake.objects.size).to.equal(0);
      });
    });
  }
});
