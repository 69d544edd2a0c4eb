import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { OutboxProvider } from '../../../adapters/providers/outbox-provider.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';

const message = (i: number): OutboundMessage => ({
  messageId: `m-${i}`, internalMessageId: `msg_${i}`, organizationId: 'org-1', channel: 'SMS', to: `+23324400${String(i).padStart(4, '0')}`,
  subject: null, body: `Message number ${i}`, senderId: null,
});

describe('OutboxProvider', () => {
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-outbox-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('appends every one of 200 concurrent sends as one whole JSON line and reports each SENT', async () => {
    const outbox = new OutboxProvider('SMS', path.join(dir, 'outbox'));
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => outbox.send(message(i))));
    expect(results.every((r) => r.accepted && !r.delivered)).to.equal(true);
    const lines = (await readFile(path.join(dir, 'outbox', 'sms.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { body: string; reference: string });
    expect(lines).to.have.length(200);
    expect(new Set(lines.map((l) => l.body)).size).to.equal(200);
    // Each answer's reference is the one written with its line.
    const referenceOf = new Map(lines.map((l) => [l.body, l.reference]));
    results.forEach((r, i) => expect(r.accepted && r.providerMessageId).to.equal(referenceOf.get(`Message number ${i}`)));
  });

  it('makes each reference when it writes, later sends getting greater references whatever the order of the messages', async () => {
    const outbox = new OutboxProvider('SMS', path.join(dir, 'outbox'));
    const references: string[] = [];
    for (const i of [9, 3, 7, 1, 5]) {
      const result = await outbox.send(message(i));
      if (!result.accepted) throw new Error('not accepted');
      references.push(result.providerMessageId!);
    }
    expect(references.every((r) => r.startsWith('outbox_'))).to.equal(true);
    expect([...references].sort()).to.deep.equal(references);
    expect(new Set(references).size).to.equal(5);
  });

  it('answers a retryable OUTBOX_WRITE_FAILED when the directory cannot be created', async () => {
    await writeFile(path.join(dir, 'blocked'), 'a file where the directory should be');
    const result = await new OutboxProvider('SMS', path.join(dir, 'blocked', 'outbox')).send(message(1));
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'OUTBOX_WRITE_FAILED' });
  });
});
