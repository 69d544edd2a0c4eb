import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { OutboxEmailSender } from '../../adapters/email/outbox-email-sender.ts';

describe('OutboxEmailSender (the embedded default mail transport)', () => {
  let root: string;
  beforeEach(async () => { root = await mkdtemp(path.join(os.tmpdir(), 'nkra-outbox-')); });
  afterEach(async () => { await rm(root, { recursive: true, force: true }); });

  it('creates the outbox directory and writes each email as one readable JSON file', async () => {
    const outbox = path.join(root, 'data', 'outbox');
    const sender = new OutboxEmailSender(outbox);

    await sender.send({ to: 'ama@example.com', subject: 'Reset your password', text: 'Open https://app.test/reset-password?token=abc' });
    await sender.send({ to: 'kofi@example.com', subject: 'Welcome', text: 'Hello', html: '<p>Hello</p>' });

    const files = (await readdir(outbox)).sort();
    expect(files).to.have.length(2);
    expect(files.every((f) => f.endsWith('.json'))).to.equal(true);
    const emails = await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(outbox, f), 'utf8'))));
    const byRecipient = Object.fromEntries(emails.map((e) => [e.to, e]));
    expect(byRecipient['ama@example.com']).to.include({ subject: 'Reset your password', text: 'Open https://app.test/reset-password?token=abc' });
    expect(byRecipient['kofi@example.com']).to.include({ subject: 'Welcome', text: 'Hello', html: '<p>Hello</p>' });
    expect(Number.isNaN(Date.parse(byRecipient['ama@example.com'].sentAt))).to.equal(false);
  });

  it('names files after the recipient without letting the address escape the directory', async () => {
    const outbox = path.join(root, 'outbox');
    await new OutboxEmailSender(outbox).send({ to: '../../evil/x@example.com', subject: 's', text: 't' });

    const files = await readdir(outbox);
    expect(files).to.have.length(1);
    expect(files[0]).to.not.include('/');
    expect(files[0]).to.include('x@example.com');
    expect(await readdir(root)).to.deep.equal(['outbox']);
  });

  it('keeps emails readable by the owner only (they carry reset links)', async () => {
    const outbox = path.join(root, 'outbox');
    await new OutboxEmailSender(outbox).send({ to: 'a@example.com', subject: 's', text: 't' });
    const [file] = await readdir(outbox);
    expect((await stat(path.join(outbox, file!))).mode & 0o777).to.equal(0o600);
  });
});
