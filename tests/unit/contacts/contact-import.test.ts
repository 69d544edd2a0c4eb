import { expect } from 'chai';
import { CsvParseReader } from '../../../adapters/csv/csv-parse-reader.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import type { Repositories, Storage } from '../../../core/ports/storage.ts';
import { ProcessContactImport } from '../../../core/use-cases/contacts/process-contact-import.ts';
import { StartContactImport } from '../../../core/use-cases/contacts/start-contact-import.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

async function* bytes(text: string, pieceSize = 7) {
  const all = new TextEncoder().encode(text);
  for (let i = 0; i < all.length; i += pieceSize) yield all.slice(i, i + pieceSize);
}

describe('contact CSV import (use cases on memory)', () => {
  let core: TestCore;
  const organizationId = 'org-1';
  const scope = { organizationId, userId: 'user-1' };

  beforeEach(async () => {
    core = buildCore();
    await core.storage.organizations.insert(newOrganization(organizationId, 'Kente', core.clock.now()));
  });

  async function start(csv: string) {
    return new StartContactImport(core).execute(scope, { name: 'c.csv', content: bytes(csv) });
  }
  const processor = (storage: Storage = core.storage, batchRows = 2) => new ProcessContactImport({ storage, ids: core.ids, clock: core.clock, csv: new CsvParseReader(), batchRows });

  it('stores the upload, estimates the rows and enqueues the job in one go', async () => {
    const job = await start('phone,firstName\r\n0241000001,Ama\r\n0241000002,Kofi');
    expect(job).to.include({ status: 'PENDING', sizeBytes: 48 });
    expect(job.progress).to.deep.equal({ rowsDone: 0, totalRows: 2 });
    expect(core.storage.jobs.take(QUEUES.contactImport).map((j) => j.data)).to.deep.equal([{ importId: job.id }]);
  });

  it('merges rows of one file that name the same person, and refuses a row whose phone and email belong to two contacts', async () => {
    const job = await start([
      'Phone,E-mail,first_name,Tags',
      '0241000001,,Ama,vip',
      '024 100 0001,ama@example.com,,',
      ',AMA@example.com,Ama Serwaa,accra|vip',
      '0241000002,kofi@example.com,Kofi,',
      '0241000002,ama@example.com,Clash,',
    ].join('\n'));
    const done = await processor().execute(job.id);
    expect(done).to.include({ status: 'COMPLETED', created: 2, updated: 2, skipped: 1, rowsDone: 5 });
    expect(done!.errors).to.deep.equal([{ line: 6, reason: 'the phone and the email belong to two different contacts' }]);
    const ama = (await core.storage.contacts.findByAddresses(organizationId, ['+233241000001'], []))[0]!;
    expect(ama).to.include({ firstName: 'Ama Serwaa', email: 'ama@example.com' });
    expect(ama.tags).to.deep.equal(['vip', 'accra']);
  });

  it('matches stored contacts in a batch of mostly new people as if it had looked them up first', async () => {
    const stored = { organizationId, firstName: 'Kojo', lastName: null, email: null, countryCode: 'GH', tags: ['old'], fcmToken: null, attributes: {}, optedOutAt: null,
      createdAt: core.clock.now(), updatedAt: core.clock.now() };
    await core.storage.contacts.insert({ ...stored, id: 'kojo', phone: '+233241000009' });
    await core.storage.contacts.insert({ ...stored, id: 'yaa', firstName: 'Yaa', phone: '+233241000008' });
    // Only a skipped row's phone is stored (Yaa's); its email is the one the first row just created.
    const clash = await start(['phone,email,firstName', '0241000001,ama@example.com,Ama', '0241000008,ama@example.com,Clash', '0241000002,,Kofi'].join('\n'));
    const first = await processor(core.storage, 10).execute(clash.id);
    expect(first).to.include({ status: 'COMPLETED', created: 2, updated: 0, skipped: 1 });
    expect(first!.errors).to.deep.equal([{ line: 3, reason: 'the phone and the email belong to two different contacts' }]);
    const mixed = await start(['phone,firstName,tags', '0241000003,Esi,', '0241000009,Kojo Mensah,vip', '0241000004,Abena,'].join('\n'));
    expect(await processor(core.storage, 10).execute(mixed.id)).to.include({ status: 'COMPLETED', created: 2, updated: 1, skipped: 0 });
    const kojo = await core.storage.contacts.findById(organizationId, 'kojo');
    expect(kojo).to.include({ firstName: 'Kojo Mensah' });
    expect(kojo!.tags).to.deep.equal(['old', 'vip']);
    expect((await core.storage.contacts.search(organizationId, { search: '', offset: 0, limit: 100, countUpTo: 1_000 })).total).to.equal(6);
  });

  it('resumes after a crash at the last committed batch: nothing is created twice', async () => {
    const rows = Array.from({ length: 9 }, (_, i) => `02410000${String(10 + i)},N${i}`);
    const job = await start(['phone,firstName', ...rows].join('\n'));
    let n = 0;
    const crashing = Object.create(core.storage) as Storage;
    crashing.transaction = <T>(work: (tx: Repositories) => Promise<T>) => core.storage.transaction(async (tx) => {
      const result = await work(tx);
      if (++n === 3) throw new Error('worker killed');
      return result;
    });
    expect(await processor(crashing).execute(job.id).then(() => 'finished', (e: Error) => e.message)).to.equal('worker killed');
    expect((await core.storage.contactImports.findById(organizationId, job.id))!.rowsDone).to.equal(4);
    const done = await processor().execute(job.id);
    expect(done).to.include({ status: 'COMPLETED', created: 9, updated: 0, rowsDone: 9, totalRows: 9 });
    expect((await core.storage.contacts.search(organizationId, { search: '', offset: 0, limit: 100, countUpTo: 1_000 })).total).to.equal(9);
    expect(await processor().execute(job.id)).to.include({ status: 'COMPLETED', created: 9 });
  });

  it('pauses a long import after its row budget and re-enqueues the rest', async () => {
    const job = await start(['phone', ...Array.from({ length: 9 }, (_, i) => `02420000${String(10 + i)}`)].join('\n'));
    core.storage.jobs.take(QUEUES.contactImport);
    const budgeted = new ProcessContactImport({ storage: core.storage, ids: core.ids, clock: core.clock, csv: new CsvParseReader(), batchRows: 2, maxRowsPerRun: 4 });
    expect(await budgeted.execute(job.id)).to.include({ status: 'PROCESSING', rowsDone: 4 });
    expect(core.storage.jobs.take(QUEUES.contactImport).map((j) => j.data)).to.deep.equal([{ importId: job.id }]);
    expect(await budgeted.execute(job.id)).to.include({ status: 'PROCESSING', rowsDone: 8 });
    expect(await budgeted.execute(job.id)).to.include({ status: 'COMPLETED', rowsDone: 9, created: 9 });
  });

  it('completes in the run that reaches the end of the file, even when the last batch fills the row budget exactly', async () => {
    const job = await start(['phone', ...Array.from({ length: 8 }, (_, i) => `02430000${String(10 + i)}`)].join('\n'));
    core.storage.jobs.take(QUEUES.contactImport);
    const budgeted = new ProcessContactImport({ storage: core.storage, ids: core.ids, clock: core.clock, csv: new CsvParseReader(), batchRows: 2, maxRowsPerRun: 4 });
    expect(await budgeted.execute(job.id)).to.include({ status: 'PROCESSING', rowsDone: 4 });
    expect(await budgeted.execute(job.id)).to.include({ status: 'COMPLETED', rowsDone: 8, created: 8 });
    expect(core.storage.jobs.take(QUEUES.contactImport)).to.have.length(1); // the first run's re-enqueue only
  });

  it('keeps the first 100 row errors and counts them all', async () => {
    const job = await start(['phone', ...Array.from({ length: 130 }, () => 'not-a-phone')].join('\n'));
    const done = await processor(core.storage, 50).execute(job.id);
    expect(done).to.include({ skipped: 130, errorCount: 130, created: 0 });
    expect(done!.errors).to.have.length(100);
    expect(done!.errors[0]).to.deep.equal({ line: 2, reason: 'phone is not a phone number' });
  });

  it('refuses an empty file and a header without phone or email', async () => {
    for (const csv of ['', 'name,city\nAma,Accra']) {
      const error = await start(csv).then(() => null, (e: { code: string; details: { fieldErrors: Record<string, string[]> } }) => e);
      expect(error?.code).to.equal('VALIDATION_ERROR');
      expect(error?.details.fieldErrors).to.have.property('file');
    }
    expect(core.storage.state.contactImports.size).to.equal(0);
  });
});
