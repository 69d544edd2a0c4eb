import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { DELIVERY_LOG_CSV_COLUMNS } from '../../../core/use-cases/delivery-logs/delivery-log-csv.ts';
import { DELIVERY_LOG_EXPORT_MAX_ROWS, ExportDeliveryLogs } from '../../../core/use-cases/delivery-logs/export-delivery-logs.ts';
import { buildCore } from '../../support/build-core.ts';
import { buildMessage, parseCsv } from './delivery-log-fixtures.ts';

const ORG = 'org-export';
const OTHER = 'org-other';

async function collect(chunks: AsyncIterable<string>): Promise<{ text: string; pieces: number }> {
  let text = '';
  let pieces = 0;
  for await (const chunk of chunks) { text += chunk; pieces += 1; }
  return { text, pieces };
}

describe('ExportDeliveryLogs', () => {
  it('writes a header row, then one CRLF record per log, newest first, with the documented columns', async () => {
    const core = buildCore();
    core.clock.set(new Date('2026-03-02T10:15:30.250Z'));
    const failed = buildMessage(ORG, 2, {
      id: 'm-2', internalMessageId: 'msg_2', channel: 'VOICE', status: 'FAILED', errorCode: 'PROVIDER_REJECTED', errorMessage: 'Number unreachable',
      cost: 0, segments: 1, encoding: null, deliveredAt: null, failedAt: new Date('2026-03-01T08:00:05.000Z'),
    });
    await core.storage.messages.insertMany([buildMessage(ORG, 1, { id: 'm-1', internalMessageId: 'msg_1', cost: 1230, segments: 3 }), failed]);

    const result = await new ExportDeliveryLogs(core).execute(ORG, {});
    const { text } = await collect(result.chunks);

    expect(result.filename).to.equal('delivery-logs-20260302-101530Z.csv');
    expect(result.truncated).to.equal(false);
    expect(text.split('\r\n')[0]).to.equal(DELIVERY_LOG_CSV_COLUMNS.join(','));
    expect(text.split('\r\n')[0]).to.equal('id,internalMessageId,createdAt,channel,recipient,status,errorCode,errorMessage,costGhs,segments,'
      + 'encoding,provider,isSandbox,sentAt,deliveredAt,failedAt,deliveredVia');
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(parseCsv(text).slice(1)).to.deep.equal([
      ['m-2', 'msg_2', '2026-03-01T08:00:02.000Z', 'VOICE', "'+233241234567", 'FAILED', 'PROVIDER_REJECTED', 'Number unreachable', '0.00', '1',
        '', 'sandbox', 'false', '2026-03-01T08:00:03.000Z', '', '2026-03-01T08:00:05.000Z', ''],
      ['m-1', 'msg_1', '2026-03-01T08:00:01.000Z', 'SMS', "'+233241234567", 'DELIVERED', '', '', '12.30', '3',
        'GSM-7', 'sandbox', 'false', '2026-03-01T08:00:02.000Z', '2026-03-01T08:00:04.000Z', '', ''],
    ]);
  });

  it('quotes commas, double quotes and line breaks so every record keeps its columns', async () => {
    const core = buildCore();
    const errorMessage = 'Carrier said "no", then\r\nhung up,\nagain';
    await core.storage.messages.insertMany([buildMessage(ORG, 1, { recipient: 'ama,"kofi"@example.com', channel: 'EMAIL', errorMessage })]);
    const { text } = await collect((await new ExportDeliveryLogs(core).execute(ORG, {})).chunks);
    expect(text).to.include('"ama,""kofi""@example.com"');
    const [, row] = parseCsv(text);
    expect(row).to.have.length(DELIVERY_LOG_CSV_COLUMNS.length);
    expect(row![4]).to.equal('ama,"kofi"@example.com');
    expect(row![7]).to.equal(errorMessage);
  });

  it('neutralises cells a spreadsheet would run as formulas with a leading quote', async () => {
    const core = buildCore();
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+cmd|\' /C calc\'!A0', '-2+3', '@SUM(A1)', '\tTAB', '\rCR'];
    await core.storage.messages.insertMany(hostile.map((errorMessage, i) => buildMessage(ORG, i, { errorMessage, status: 'FAILED' })));
    const { text } = await collect((await new ExportDeliveryLogs(core).execute(ORG, {})).chunks);
    const cells = parseCsv(text).slice(1).map((row) => row[7]);
    expect(cells).to.deep.equal([...hostile].reverse().map((value) => `'${value}`));
    expect(parseCsv(text).slice(1).every((row) => row.every((cell) => !/^[=+\-@\t\r]/.test(cell)))).to.equal(true);
  });

  it('holds at most 10,000 rows, the newest, and says when more matched', async () => {
    const core = buildCore();
    await core.storage.messages.insertMany(Array.from({ length: DELIVERY_LOG_EXPORT_MAX_ROWS + 5 }, (_, i) => buildMessage(ORG, i, { id: `m-${String(i).padStart(5, '0')}` })));
    const result = await new ExportDeliveryLogs(core).execute(ORG, {});
    const { text, pieces } = await collect(result.chunks);
    const rows = parseCsv(text);
    expect(result.truncated).to.equal(true);
    expect(rows).to.have.length(DELIVERY_LOG_EXPORT_MAX_ROWS + 1);
    expect(rows[1]![0]).to.equal('m-10004');
    expect(rows[rows.length - 1]![0]).to.equal('m-00005');
    expect(pieces, 'handed on in pieces, not as one string').to.be.greaterThan(10);
  });

  it('is not truncated at exactly 10,000 matching rows', async () => {
    const core = buildCore();
    await core.storage.messages.insertMany(Array.from({ length: DELIVERY_LOG_EXPORT_MAX_ROWS }, (_, i) => buildMessage(ORG, i)));
    const result = await new ExportDeliveryLogs(core).execute(ORG, {});
    expect(result.truncated).to.equal(false);
    expect(parseCsv((await collect(result.chunks)).text)).to.have.length(DELIVERY_LOG_EXPORT_MAX_ROWS + 1);
  });

  it('filters by status and channel, names the file after them, and never includes another organization\'s rows', async () => {
    const core = buildCore();
    core.clock.set(new Date('2026-03-02T10:15:30.000Z'));
    await core.storage.messages.insertMany([
      buildMessage(ORG, 1, { id: 'sms-failed', status: 'FAILED' }),
      buildMessage(ORG, 2, { id: 'voice-failed', status: 'FAILED', channel: 'VOICE' }),
      buildMessage(ORG, 3, { id: 'sms-ok' }),
      buildMessage(OTHER, 4, { id: 'theirs', status: 'FAILED' }),
    ]);
    const exporter = new ExportDeliveryLogs(core);
    const failedSms = await exporter.execute(ORG, { status: 'FAILED', channel: 'SMS' });
    expect(failedSms.filename).to.equal('delivery-logs-20260302-101530Z-failed-sms.csv');
    expect(parseCsv((await collect(failedSms.chunks)).text).slice(1).map((r) => r[0])).to.deep.equal(['sms-failed']);
    const all = await exporter.execute(ORG, { status: '' });
    expect(parseCsv((await collect(all.chunks)).text).slice(1).map((r) => r[0])).to.deep.equal(['sms-ok', 'voice-failed', 'sms-failed']);
  });

  it('answers just the header row when nothing matches', async () => {
    const core = buildCore();
    const { text } = await collect((await new ExportDeliveryLogs(core).execute(ORG, { status: 'PENDING' })).chunks);
    expect(text).to.equal(`${DELIVERY_LOG_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('rejects an unknown status or channel with VALIDATION_ERROR before producing anything', async () => {
    const exporter = new ExportDeliveryLogs(buildCore());
    for (const [query, field] of [[{ status: 'BOGUS' }, 'status'], [{ channel: 'sms' }, 'channel']] as const) {
      const error = await exporter.execute(ORG, query).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(AppError);
      expect((error as AppError).code).to.equal('VALIDATION_ERROR');
      expect((error as AppError).details['fieldErrors']).to.have.all.keys(field);
    }
  });
});
