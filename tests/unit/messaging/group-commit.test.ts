import { expect } from 'chai';
import { buildPipeline, ghPhone } from './messaging-fixtures.ts';

describe('SendMessage: group commit of concurrent queued sends', () => {
  it('accepts concurrent queued sends of one sender together: every one QUEUED with its own id, one job each, charged once each', async () => {
    const p = await buildPipeline();
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      p.send.execute(p.live, { channel: 'SMS', to: ghPhone(i), body: 'Flash sale', async: true })));

    expect(results.map((r) => r.log['status'])).to.deep.equal(Array(30).fill('QUEUED'));
    expect(new Set(results.map((r) => r.log['id'])).size).to.equal(30);
    expect(results.map((r) => r.log['recipient'])).to.deep.equal(Array.from({ length: 30 }, (_, i) => ghPhone(i)));
    expect(p.takeJobs()).to.have.length(30);
    expect(await p.balance()).to.equal(10_000 - 30 * 3);
    const debits = await p.entries('DEBIT');
    expect(debits.length).to.be.lessThan(30); // coalesced into fewer ledger entries...
    expect(debits.reduce((sum, e) => sum + e.amount, 0)).to.equal(-90); // ...charging exactly the same
  });

  it('gives each request its own outcome when the balance covers only some: the covered ones QUEUED, the rest 402, nothing half-written', async () => {
    const p = await buildPipeline({ balance: 10 * 3 });
    const settled = await Promise.allSettled(Array.from({ length: 25 }, (_, i) =>
      p.send.execute(p.live, { channel: 'SMS', to: ghPhone(i), body: 'Flash sale', async: true })));

    const accepted = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    expect(accepted).to.have.length(10);
    expect(refused.map((r) => (r.reason as { code: string }).code)).to.deep.equal(Array(15).fill('INSUFFICIENT_BALANCE'));
    expect(await p.balance()).to.equal(0);
    expect(await p.messages()).to.have.length(10);
    expect(p.takeJobs()).to.have.length(10);
  });

  it('screens a coalesced batch in order: the velocity cap counts the batch\'s own earlier messages', async () => {
    const p = await buildPipeline({ fraud: { recipientPerHour: 3 } });
    const results = await Promise.all(Array.from({ length: 5 }, () =>
      p.send.execute(p.live, { channel: 'SMS', to: ghPhone(7), body: 'again', async: true })));
    expect(results.map((r) => r.log['status'])).to.deep.equal(['QUEUED', 'QUEUED', 'QUEUED', 'REJECTED', 'REJECTED']);
    expect(results[4]!.log['errorCode']).to.equal('FRAUD_RECIPIENT_VELOCITY');
    expect(await p.balance()).to.equal(10_000 - 9);
  });

  it('keeps senders apart: a sandbox key\'s sends are never coalesced with (or charged like) a live key\'s', async () => {
    const p = await buildPipeline();
    const results = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(i), body: 'live', async: true })),
      ...Array.from({ length: 5 }, (_, i) => p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(i), body: 'sandbox', async: true })),
    ]);
    expect(results.map((r) => r.log['cost'])).to.deep.equal([0.03, 0.03, 0.03, 0.03, 0.03, 0, 0, 0, 0, 0]);
    expect(await p.balance()).to.equal(10_000 - 15);
  });
});
