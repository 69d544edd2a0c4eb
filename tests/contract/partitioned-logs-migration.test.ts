import { expect } from 'chai';
import type { Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { MIGRATIONS } from '../../adapters/postgres/migrations/index.ts';
import { scratchDatabase, type ScratchDatabase } from '../support/processes.ts';
import { v7At } from '../support/uuid-v7-at.ts';

const CONVERSION = '0040-partitioned-logs';
const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.id === CONVERSION));
/** Up to and including the conversion: later migrations may add columns, which would change the rows' fingerprint. */
const throughConversion = MIGRATIONS.slice(0, before.length + 1);

const rows = <R>(db: Database, sql: string, params: unknown[] = []) => db.em().execute<R[]>(sql, params);
const one = async (db: Database, sql: string, params: unknown[] = []) => Object.values((await rows<Record<string, unknown>>(db, sql, params))[0]!)[0];

/** A database at the schema before the conversion, holding messages of three months, their attempts, events and outbound events. */
async function populate(db: Database): Promise<void> {
  await migrate(db, before);
  await db.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values
    ('org-a', 'A', 'UTC', 'en', now(), now()), ('org-b', 'B', 'UTC', 'en', now(), now())`);
  const now = new Date();
  const months = [-2, -1, 0].map((k) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 3, 12)));
  let n = 0;
  for (const at of months) {
    for (let i = 0; i < 30; i++) {
      const created = new Date(at.getTime() + i * 60_000);
      const id = v7At(created, n++);
      const org = i % 3 === 0 ? 'org-b' : 'org-a';
      await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, cost, price, segments, is_sandbox, provider, created_at, updated_at)
        values (?, ?, ?, 'SMS', ?, 'hello', ?, 3, 3, 1, false, 'p1', ?, ?)`, [id, org, `msg_${id.replace(/-/g, '')}`, `+23324000${String(i).padStart(4, '0')}`, i % 4 === 0 ? 'FAILED' : 'SENT', created, created]);
      await db.em().execute(`insert into message_attempts (id, message_id, attempt, provider, outcome, retryable, duration_ms, created_at) values (?, ?, 1, 'p1', 'ACCEPTED', false, 12, ?)`,
        [v7At(created, n++), id, created]);
      await db.em().execute(`insert into message_status_events (id, message_id, organization_id, status, source, created_at) values (?, ?, ?, 'SENT', 'delivery', ?)`,
        [v7At(created, n++), id, org, created]);
      await db.em().execute(`insert into outbound_events (id, organization_id, kind, data, occurred_at) values (?, ?, 'message.sent', '{"a":1}', ?)`, [v7At(created, n++), org, created]);
    }
  }
  // An id that is no UUIDv7 (a legacy or hand-made row) lands in the DEFAULT partition.
  await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, is_sandbox, created_at, updated_at)
    values ('legacy-1', 'org-a', 'legacy-1', 'EMAIL', 'a@example.com', 'x', 'QUEUED', true, now(), now())`);
}

const fingerprint = async (db: Database) => ({
  messages: await one(db, `select md5(string_agg(m::text, ',' order by id)) from messages m`),
  attempts: await one(db, `select md5(string_agg(a::text, ',' order by id)) from message_attempts a`),
  events: await one(db, `select md5(string_agg(e::text, ',' order by id)) from message_status_events e`),
  outbound: await one(db, `select md5(string_agg(o::text, ',' order by id)) from outbound_events o`),
  counts: await rows(db, `select (select count(*) from messages) as m, (select count(*) from message_attempts) as a,
    (select count(*) from message_status_events) as e, (select count(*) from outbound_events) as o`),
  stats: await rows(db, `select organization_id, day::text, status, sum(messages)::int as n, sum(cost)::int as cost from message_daily_stats
    group by 1, 2, 3 having sum(messages) <> 0 order by 1, 2, 3`),
  indexes: (await rows<{ indexname: string }>(db, `select indexname from pg_indexes where tablename = 'messages' order by 1`)).map((r) => r.indexname),
});

describe('migration 0040: monthly partitions from the live schema, every row kept', function () {
  this.timeout(120_000);
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(kind, () => {
      let db: Database;
      let scratch: ScratchDatabase | null = null;
      beforeEach(async function () {
        scratch = await scratchDatabase(kind, 'nkra_partition_migration', 2);
        if (!scratch) this.skip();
        db = scratch.db;
        await populate(db);
      });
      afterEach(async () => {
        await scratch?.close();
        scratch = null;
      });

      it('converts messages, attempts, status events and outbound events; rows, roll-ups and index names are unchanged', async () => {
        const was = await fingerprint(db);
        expect(await migrate(db, throughConversion)).to.include(CONVERSION);
        const is = await fingerprint(db);
        expect(is).to.deep.equal({ ...was, indexes: is.indexes });
        // Every index name of messages is back (on the partitioned table).
        expect(is.indexes).to.have.members(was.indexes);
        const kinds = await rows<{ relname: string; relkind: string }>(db,
          `select relname, relkind from pg_class where relname in ('messages', 'message_attempts', 'message_status_events', 'outbound_events') order by 1`);
        expect(kinds.map((k) => k.relkind)).to.deep.equal(['p', 'p', 'p', 'p']);
        const now = new Date();
        const month = (k: number) => { const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1)); return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`; };
        const parts = (await rows<{ name: string }>(db, `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'messages'::regclass order by 1`)).map((r) => r.name);
        expect(parts).to.include.members([`messages_p${month(-2)}`, `messages_p${month(0)}`, 'messages_default']);
        // Rows sit in their month; the non-UUIDv7 id in the default partition.
        expect(Number(await one(db, `select count(*) from messages_p${month(-2)}`))).to.equal(30);
        expect(Number(await one(db, `select count(*) from message_attempts_p${month(-1)}`))).to.equal(30);
        expect(await one(db, `select id from messages_default`)).to.equal('legacy-1');
        // A lookup by id reads one partition.
        const plan = (await rows<{ 'QUERY PLAN': string }>(db, `explain select * from messages where id = '${v7At(new Date(), 0)}'`)).map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).to.include(`messages_p${month(0)}`).and.not.to.include(`messages_p${month(-1)}`);
      });

      it('keeps the roll-up triggers and the ON DELETE CASCADE of attempts and status events', async () => {
        await migrate(db);
        const id = v7At(new Date(), 99);
        await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, cost, is_sandbox, created_at, updated_at)
          values (?, 'org-b', ?, 'SMS', '+233240000999', 'x', 'QUEUED', 7, false, now(), now())`, [id, `msg_${id.replace(/-/g, '')}`]);
        await db.em().execute(`update messages set status = 'SENT', provider = 'p1' where id = ?`, [id]);
        expect(Number(await one(db, `select sum(cost) from message_daily_stats where organization_id = 'org-b' and day = (now() at time zone 'UTC')::date and status = 'SENT' and provider = 'p1'`)))
          .to.be.at.least(7);
        const victim = (await rows<{ id: string }>(db, `select id from messages where organization_id = 'org-a' order by id limit 1`))[0]!.id;
        expect(Number(await one(db, 'select count(*) from message_attempts where message_id = ?', [victim]))).to.equal(1);
        await db.em().execute('delete from messages where id = ?', [victim]);
        expect(Number(await one(db, 'select count(*) from message_attempts where message_id = ?', [victim]))).to.equal(0);
        expect(Number(await one(db, 'select count(*) from message_status_events where message_id = ?', [victim]))).to.equal(0);
        // Deleting an organization still removes its delivery logs and everything hanging off them.
        await db.em().execute(`delete from organizations where id = 'org-b'`);
        expect(Number(await one(db, `select count(*) from message_status_events where organization_id = 'org-b'`))).to.equal(0);
      });

      it('refuses a unique index that does not include the partition key', async () => {
        await db.em().execute('create unique index messages_recipient_unique on messages (recipient, created_at)');
        let failed: unknown = null;
        await migrate(db).catch((e: unknown) => { failed = e; });
        expect(String(failed)).to.match(/unique index messages_recipient_unique does not include id/);
        // The transaction rolled back: still the old table.
        expect(await one(db, `select relkind from pg_class where relname = 'messages'`)).to.equal('r');
      });
    });
  }
});
