import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../hosts/config.ts';

describe('configuration: retention and partition upkeep (docs/operations.md)', () => {
  it('defaults: 13 months of delivery logs, 3 of outbox events, 30 days of webhook deliveries, 3 months ahead, hourly, no archive', async () => {
    const config = await loadConfig({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'nkra-config-')) });
    expect(config.retention).to.deep.equal({ messagesMonths: 13, outboundEventsMonths: 3, webhookDeliveriesDays: 30, monthsAhead: 3, auditLogDays: 0 });
    expect(config.archive).to.equal(null);
    expect(config.partitionMaintenanceMs).to.equal(3_600_000);
  });

  it('reads the settings; 0 keeps records forever; ARCHIVE_DIR is resolved', async () => {
    const config = await loadConfig({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'nkra-config-')), RETENTION_MESSAGES_MONTHS: '0',
      RETENTION_OUTBOUND_EVENTS_MONTHS: '6', RETENTION_WEBHOOK_DELIVERIES_DAYS: '7', PARTITIONS_AHEAD_MONTHS: '2', ARCHIVE_DIR: 'archive' });
    expect(config.retention).to.deep.equal({ messagesMonths: 0, outboundEventsMonths: 6, webhookDeliveriesDays: 7, monthsAhead: 2, auditLogDays: 0 });
    expect(config.archive).to.deep.equal({ kind: 'directory', dir: path.resolve('archive') });
  });

  it('refuses a negative retention and no partition ahead', async () => {
    let problems: string[] = [];
    try {
      await loadConfig({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'nkra-config-')), RETENTION_MESSAGES_MONTHS: '-1', PARTITIONS_AHEAD_MONTHS: '0' });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems.join('\n')).to.match(/RETENTION_MESSAGES_MONTHS/).and.to.match(/PARTITIONS_AHEAD_MONTHS: must be at least 1/);
  });
});
