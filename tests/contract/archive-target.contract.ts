import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { expect } from 'chai';
import type { ArchiveTarget } from '../../adapters/archive/archive-target.ts';

/** What a test needs besides the target: ways to break the store, and to see what a failed write left behind. */
export interface ArchiveTargetHarness {
  target: ArchiveTarget;
  /** From now on the store refuses writes (a directory that cannot be made, a store answering 500). */
  refuseWrites(): Promise<void>;
  /** From now on the store stops answering; null for a target without a network (a directory). */
  stall: (() => void) | null;
  /** Undoes refuseWrites and stall. */
  heal(): Promise<void>;
  /** Unfinished pieces a write left: `.partial` files, open multipart uploads. */
  leftovers(): Promise<number>;
  close?(): Promise<void>;
}

/** A stream of `bytes` in 64 KiB chunks. */
function streamOf(bytes: Buffer): Readable {
  return Readable.from((function* () {
    for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
  })(), { objectMode: false });
}

/** A stream that gives `before` bytes and then fails, as an export whose database connection drops. */
function failingAfter(before: number): Readable {
  return Readable.from((async function* () {
    for (let sent = 0; sent < before; sent += 65_536) yield randomBytes(65_536);
    throw new Error('export failed: the database connection was lost');
  })(), { objectMode: false });
}

const readAll = async (target: ArchiveTarget, name: string): Promise<Buffer | null> => {
  const stream = await target.read(name);
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const rejection = async (work: Promise<unknown>): Promise<Error> => {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
};

/** The ArchiveTarget contract (adapters/archive/archive-target.ts), run on every implementation. */
export function describeArchiveTargetContract(name: string, makeHarness: () => Promise<ArchiveTargetHarness>): void {
  describe(`ArchiveTarget contract: ${name}`, function () {
    this.timeout(60_000);
    let harness: ArchiveTargetHarness;
    let target: ArchiveTarget;
    beforeEach(async () => { harness = await makeHarness(); target = harness.target; });
    afterEach(async () => { await harness.close?.(); });

    it('writes a small object and reads back the same bytes; the receipt and the listing give its size', async () => {
      const csv = Buffer.from('id,body\n1,"a ""quoted"", multi\nline body"\n');
      const receipt = await target.write('messages_p202511.csv.gz', streamOf(csv));
      expect(receipt).to.include({ name: 'messages_p202511.csv.gz', bytes: csv.length });
      expect(receipt.location).to.match(/messages_p202511\.csv\.gz$/);
      expect(await readAll(target, 'messages_p202511.csv.gz')).to.deep.equal(csv);
      expect(await target.list()).to.deep.equal([{ name: 'messages_p202511.csv.gz', bytes: csv.length }]);
    });

    it('writes an object larger than an upload part (11 MiB) and reads back the same bytes', async () => {
      const bytes = randomBytes(11 * 1024 * 1024);
      expect((await target.write('big.bin', streamOf(bytes))).bytes).to.equal(bytes.length);
      const back = await readAll(target, 'big.bin');
      expect(back?.length).to.equal(bytes.length);
      expect(back!.equals(bytes)).to.equal(true);
      expect(await harness.leftovers()).to.equal(0);
    });

    it('reads nothing for a name never written', async () => {
      expect(await target.read('never-written.csv.gz')).to.equal(null);
      expect(await target.list()).to.deep.equal([]);
    });

    it('leaves no complete-looking object and no leftovers when the body fails midway', async () => {
      const error = await rejection(target.write('broken.csv.gz', failingAfter(6 * 1024 * 1024)));
      expect(error.message).to.include('broken.csv.gz').and.to.include('the database connection was lost');
      expect(await target.read('broken.csv.gz')).to.equal(null);
      expect(await target.list()).to.deep.equal([]);
      expect(await harness.leftovers()).to.equal(0);
    });

    it('keeps the previous complete object when a rewrite fails', async () => {
      await target.write('month.csv.gz', streamOf(Buffer.from('first complete copy\n')));
      await rejection(target.write('month.csv.gz', failingAfter(6 * 1024 * 1024)));
      expect((await readAll(target, 'month.csv.gz'))?.toString()).to.equal('first complete copy\n');
      expect(await harness.leftovers()).to.equal(0);
    });

    it('fails a write the store refuses, leaving no object, and writes once the store is back', async () => {
      await harness.refuseWrites();
      const error = await rejection(target.write('refused.csv.gz', streamOf(Buffer.from('rows\n'))));
      expect(error.message).to.include('refused.csv.gz');
      await harness.heal();
      expect(await target.read('refused.csv.gz')).to.equal(null);
      await target.write('refused.csv.gz', streamOf(Buffer.from('rows\n')));
      expect((await readAll(target, 'refused.csv.gz'))?.toString()).to.equal('rows\n');
    });

    it('replaces an object written again under the same name, whole (a retried export is harmless)', async () => {
      const long = Buffer.from('header\nrow 1\nrow 2\n');
      await target.write('again.csv.gz', streamOf(long));
      await target.write('again.csv.gz', streamOf(long));
      expect(await target.list()).to.deep.equal([{ name: 'again.csv.gz', bytes: long.length }]);
      await target.write('again.csv.gz', streamOf(Buffer.from('header\n')));
      expect(await text((await target.read('again.csv.gz'))!)).to.equal('header\n');
      expect(await target.list()).to.deep.equal([{ name: 'again.csv.gz', bytes: 7 }]);
    });

    it('fails a write to a stalled store within its timeout, leaving no object', async function () {
      if (!harness.stall) this.skip();
      harness.stall!();
      const started = Date.now();
      const error = await rejection(target.write('stalled.csv.gz', streamOf(Buffer.from('rows\n'))));
      expect(Date.now() - started).to.be.below(15_000);
      expect(error.message).to.include('stalled.csv.gz').and.to.match(/time(d)? ?out/i);
      await harness.heal();
      expect(await target.read('stalled.csv.gz')).to.equal(null);
    });

    it('refuses a name that is not a plain file name', async () => {
      for (const bad of ['../escape.csv.gz', 'nested/name.csv.gz', '', '.hidden', 'a..b']) {
        await rejection(target.write(bad, streamOf(Buffer.from('x'))));
      }
      expect(await target.list()).to.deep.equal([]);
    });
  });
}
