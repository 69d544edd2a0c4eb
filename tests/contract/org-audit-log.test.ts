import { expect } from 'chai';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { anAuditRecord, describeOrgAuditLogContract } from './org-audit-log.contract.ts';
import { storageImplementations } from './storage-implementations.ts';
import { at, seedOrganization, uniqueId } from './contract-fixtures.ts';
import { purgeOrgAuditLogs } from '../../adapters/postgres/org-audit-retention.ts';
import type { Database } from '../../adapters/postgres/database.ts';

for (const implementation of await storageImplementations()) describeOrgAuditLogContract(implementation.name, implementation.make);

/** Migration 0058: the database itself keeps the log append-only, and tampering shows in verification. */
for (const kind of await availableDatabaseKinds()) {
  describe(`org_audit_log in the database: ${kind}`, () => {
    let storage: MikroOrmStorage;
    let execute: (sql: string, params?: unknown[]) => Promise<unknown>;
    let database: Database;
    before(async () => {
      const infra = await sharedInfrastructure(kind);
      database = infra.database;
      storage = new MikroOrmStorage(infra.database, new UuidV7IdGenerator(), infra.boss);
      execute = (sql, params = []) => infra.database.em().execute(sql, params);
    });

    it('refuses UPDATE, DELETE and TRUNCATE; only the retention function removes rows', async () => {
      const org = uniqueId('org');
      const entry = await storage.orgAuditLog.append(anAuditRecord(org, 0));
      for (const sql of ['update org_audit_log set action = \'api_key.created\' where id = ?', 'delete from org_audit_log where id = ?']) {
        let refused: unknown = null;
        await execute(sql, [entry.id]).catch((error: unknown) => { refused = error; });
        expect(String(refused), sql).to.match(/append-only/);
      }
      let truncate: unknown = null;
      await execute('truncate org_audit_log').catch((error: unknown) => { truncate = error; });
      expect(String(truncate)).to.match(/append-only/);
      // The setting the purge function uses is transaction-local: set in one statement, it is gone in the next.
      await execute(`select set_config('nkra.org_audit_purge', 'on', true)`);
      let later: unknown = null;
      await execute('delete from org_audit_log where id = ?', [entry.id]).catch((error: unknown) => { later = error; });
      expect(String(later)).to.match(/append-only/);
      expect((await storage.orgAuditLog.list(org, {}, 10)).map((e) => e.id)).to.deep.equal([entry.id]);
    });

    it('reports the first broken link when a row is altered, one is removed, or the chain is rewritten', async () => {
      const org = uniqueId('org');
      const entries = [];
      for (let i = 0; i < 5; i++) entries.push(await storage.orgAuditLog.append(anAuditRecord(org, i)));
      const tamper = async (sql: string, params: unknown[]) => {
        // As the database owner would: switch the guard off, change the row, switch it on again.
        await execute('alter table org_audit_log disable trigger org_audit_log_append_only');
        try { await execute(sql, params); } finally { await execute('alter table org_audit_log enable trigger org_audit_log_append_only'); }
      };
      await tamper(`update org_audit_log set changes = '{"name":{"before":null,"after":"Forged"}}'::jsonb where id = ?`, [entries[2]!.id]);
      expect(await storage.orgAuditLog.verify(org, 1000)).to.deep.include({ valid: false, checked: 2, brokenAt: { seq: 3, id: entries[2]!.id, reason: 'hash_mismatch' } });
      await tamper('delete from org_audit_log where id = ?', [entries[2]!.id]);
      expect((await storage.orgAuditLog.verify(org, 1000)).brokenAt).to.deep.equal({ seq: 3, id: null, reason: 'missing_entry' });
      await tamper('delete from org_audit_log where id = ?', [entries[4]!.id]);
      await tamper('delete from org_audit_log where organization_id = ? and seq < 3', [org]);
      expect((await storage.orgAuditLog.verify(org, 1000)).brokenAt).to.deep.include({ seq: 1, reason: 'missing_entry' });
    });

    it('retention: removes entries older than the organization\'s audit_log_days, or the platform\'s days, and nothing when both keep forever', async () => {
      const [short, platform] = [await seedOrganization(storage), await seedOrganization(storage)];
      for (const org of [short.id, platform.id]) {
        for (const days of [40, 20, 5]) await storage.orgAuditLog.append(anAuditRecord(org, -days * 86_400));
      }
      await execute('insert into retention_overrides (organization_id, audit_log_days) values (?, 10)', [short.id]);
      const now = at(0);
      await purgeOrgAuditLogs(database, now, 0);
      expect((await storage.orgAuditLog.list(short.id, {}, 10)).map((e) => e.seq)).to.deep.equal([3]);
      expect((await storage.orgAuditLog.list(platform.id, {}, 10))).to.have.length(3);
      await purgeOrgAuditLogs(database, now, 30);
      expect((await storage.orgAuditLog.list(platform.id, {}, 10)).map((e) => e.seq)).to.deep.equal([3, 2]);
      expect((await storage.orgAuditLog.list(short.id, {}, 10)).map((e) => e.seq)).to.deep.equal([3]);
      for (const org of [short.id, platform.id]) expect(await storage.orgAuditLog.verify(org, 100)).to.include({ valid: true });
    });

    it('recomputing a row\'s hash to match its forged content still breaks the next link', async () => {
      const org = uniqueId('org');
      const first = await storage.orgAuditLog.append(anAuditRecord(org, 0));
      await storage.orgAuditLog.append(anAuditRecord(org, 1));
      await execute('alter table org_audit_log disable trigger org_audit_log_append_only');
      try {
        await execute('update org_audit_log set hash = ? where id = ?', ['f'.repeat(64), first.id]);
      } finally { await execute('alter table org_audit_log enable trigger org_audit_log_append_only'); }
      expect((await storage.orgAuditLog.verify(org, 1000)).brokenAt).to.deep.include({ seq: 1, reason: 'hash_mismatch' });
    });
  });
}
