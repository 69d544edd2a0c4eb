import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { buildPipeline, caught, ghPhone, permanent, transient } from './messaging-fixtures.ts';

describe('DeliverMessage', () => {
  it('fails a message on a permanent provider failure and refunds it: one REFUND entry referencing the message, balance restored', async () => {
    const p = await buildPipeline();
    p.providers.sms.next = permanent;
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused', cost: 0, attempts: 1 });
    const stored = await p.stored(String(log['id']));
    expect(stored).to.include({ status: 'FAILED', cost: 0, price: 3, leaseUntil: null });
    expect((await p.entries()).map((e) => [e.kind, e.amount, e.reference])).to.deep.equal([['DEBIT', -3, (await p.entries())[0]!.reference], ['REFUND', 3, stored.id]]);
    expect(await p.balance()).to.equal(10_000);

    await p.deliver.execute(stored.id); // a late duplicate job
    expect(await p.entries('REFUND')).to.have.length(1);
    expect(p.providers.sms.received).to.have.length(1);
  });

  it('leaves a transient failure PENDING with a retryable error, then fails and refunds once after maxAttempts', async () => {
    const p = await buildPipeline({ maxAttempts: 3 });
    p.providers.sms.next = transient;
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello', async: true });
    const id = String(log['id']);

    for (const attempt of [1, 2]) {
      const error = await caught(() => p.deliver.execute(id));
      expect(error).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
      expect(await p.stored(id)).to.include({ status: 'PENDING', attempts: attempt, errorCode: 'VENDOR_TIMEOUT', leaseUntil: null, cost: 3 });
      expect(await p.entries('REFUND')).to.have.length(0);
    }
    const failed = await p.deliver.execute(id);
    expect(failed).to.include({ status: 'FAILED', attempts: 3, errorCode: 'VENDOR_TIMEOUT', cost: 0 });
    expect(await p.deliver.execute(id)).to.include({ status: 'FAILED' });
    expect(p.providers.sms.received).to.have.length(3);
    expect((await p.entries()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -3], ['REFUND', 3]]);
    expect(await p.balance()).to.equal(10_000);
  });

  it('answers a sync send that failed transiently with PENDING, keeping the charge for the worker\'s retries', async () => {
    const p = await buildPipeline();
    p.providers.sms.next = transient;
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });
    expect(log).to.include({ status: 'PENDING', attempts: 1, errorCode: 'VENDOR_TIMEOUT', cost: 0.03 });
    expect(await p.stored(String(log['id']))).to.include({ status: 'PENDING', attempts: 1, cost: 3 });
    expect(p.takeJobs().map((j) => j.data['messageId'])).to.deep.equal([log['id']]); // the safety-net job retries it
    p.providers.sms.next = (m) => ({ accepted: true, providerMessageId: `ok_${m.messageId}`, delivered: false });
    expect(await p.deliver.execute(String(log['id']))).to.include({ status: 'SENT', attempts: 2 });
    expect(await p.entries()).to.have.length(1);
  });

  it('fails over to the second provider on a transient failure of the first', async () => {
    const first = new RecordingProvider('SMS', 'primary');
    const second = new RecordingProvider('SMS', 'secondary');
    first.next = transient;
    const p = await buildPipeline({ liveSms: [first, second] });
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });
    expect(log).to.include({ status: 'SENT', provider: 'secondary', attempts: 1 });
    expect(first.received.map((m) => m.to)).to.deep.equal([ghPhone(1)]);
    expect(second.received.map((m) => m.to)).to.deep.equal([ghPhone(1)]);
    expect(await p.entries()).to.have.length(1);
  });

  it('does not fail over on a permanent refusal (the destination is the problem, not the vendor)', async () => {
    const first = new RecordingProvider('SMS', 'primary');
    const second = new RecordingProvider('SMS', 'secondary');
    first.next = permanent;
    const p = await buildPipeline({ liveSms: [first, second] });
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'VENDOR_REJECTED' });
    expect(second.received).to.have.length(0);
    expect(await p.balance()).to.equal(10_000);
  });

  it('treats a provider that throws as a transient failure', async () => {
    const p = await buildPipeline();
    p.providers.sms.next = () => { throw new Error('socket hang up'); };
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello', async: true });
    const error = await caught(() => p.deliver.execute(String(log['id'])));
    expect(error).to.include({ code: 'PROVIDER_UNAVAILABLE' });
    expect(await p.stored(String(log['id']))).to.include({ status: 'PENDING', errorCode: 'PROVIDER_ERROR', errorMessage: 'socket hang up' });
  });

  it('fails and refunds a message when no provider serves its channel', async () => {
    const p = await buildPipeline();
    const { log } = await p.send.execute(p.live, { channel: 'VOICE', to: ghPhone(1), body: 'hello' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'NO_PROVIDER', cost: 0 });
    expect((await p.entries()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -15], ['REFUND', 15]]);
  });

  describe('a batch (executeMany, what the worker runs for a fetched batch of jobs)', () => {
    it('claims, sends and records a mixed batch: one outcome per id, in order, each what it would have been alone', async () => {
      const p = await buildPipeline({ maxAttempts: 3 });
      const ids: string[] = [];
      for (const n of [1, 2, 3, 4]) ids.push(String((await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(n), body: `hello ${n}`, async: true })).log['id']));
      p.providers.sms.next = (m) => (m.to === ghPhone(2) ? transient() : m.to === ghPhone(3) ? permanent() : { accepted: true, providerMessageId: `ok_${m.to}`, delivered: m.to === ghPhone(4) });
      await p.deliver.execute(ids[3]!); // already delivered before the batch runs

      const outcomes = await p.deliver.executeMany([ids[0]!, ids[1]!, ids[2]!, ids[3]!, 'unknown-id', ids[0]!]);
      expect(outcomes.map((o) => o.message?.status ?? (o.error as { code?: string } | undefined)?.code ?? null)).to.deep.equal(['SENT', 'PROVIDER_UNAVAILABLE', 'FAILED', 'DELIVERED', null, 'SENT']);
      expect(await p.stored(ids[0]!)).to.include({ status: 'SENT', provider: 'live-sms', providerMessageId: `ok_${ghPhone(1)}`, attempts: 1, leaseUntil: null });
      expect(await p.stored(ids[1]!)).to.include({ status: 'PENDING', attempts: 1, errorCode: 'VENDOR_TIMEOUT', leaseUntil: null });
      expect(await p.stored(ids[2]!)).to.include({ status: 'FAILED', cost: 0 });
      expect(p.providers.sms.received.map((m) => m.to)).to.have.members([ghPhone(4), ghPhone(1), ghPhone(2), ghPhone(3)]); // each once: the duplicate id is claimed once
      expect((await p.entries('REFUND')).map((e) => e.reference)).to.deep.equal([ids[2]]);
      expect((await p.core.storage.messageStatus.listEvents(ids[0]!)).map((e) => [e.status, e.source])).to.deep.equal([['SENT', 'provider:live-sms']]);
    });

    it('records each accepted attempt alone when the shared statement fails, so one bad row never fails its neighbours', async () => {
      const p = await buildPipeline();
      const ids: string[] = [];
      for (const n of [1, 2, 3]) ids.push(String((await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(n), body: 'hi', async: true })).log['id']));
      const status = p.core.storage.messageStatus;
      const original = status.recordAcceptedAttempts.bind(status);
      const groups: number[] = [];
      status.recordAcceptedAttempts = async (accepted) => {
        groups.push(accepted.length);
        if (accepted.some((a) => a.attempt.messageId === ids[1])) throw new Error('row refused');
        return original(accepted);
      };
      const outcomes = await p.deliver.executeMany(ids);
      expect(groups).to.deep.equal([3, 1, 1, 1]); // the group, then each alone
      expect(outcomes.map((o) => o.message?.status ?? (o.error as Error).message)).to.deep.equal(['SENT', 'row refused', 'SENT']);
    });
  });

  describe('a worker that died mid-job', () => {
    it('keeps the message from a second worker while its lease runs, then lets the retry deliver it exactly once', async () => {
      const p = await buildPipeline();
      const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello', async: true });
      const id = String(log['id']);
      const now = p.core.clock.now();
      // The dead worker claimed it (attempt 1, lease 60 s) and never came back.
      await p.core.storage.messages.transition(id, ['QUEUED'], { status: 'PENDING', attempts: 1, leaseUntil: new Date(now.getTime() + 60_000), updatedAt: now });

      const held = await caught(() => p.deliver.execute(id));
      expect(held).to.include({ code: 'CONFLICT', retryable: true }); // the job must come back, not complete with the message stuck PENDING
      expect(p.providers.sms.received).to.have.length(0);

      p.core.clock.advance(60_001);
      expect(await p.deliver.execute(id)).to.include({ status: 'SENT', attempts: 2 });
      expect(await p.deliver.execute(id)).to.include({ status: 'SENT', attempts: 2 });
      expect(p.providers.sms.received).to.have.length(1);
      expect((await p.entries()).map((e) => e.kind)).to.deep.equal(['DEBIT']);
      expect(await p.balance()).to.equal(10_000 - 3);
    });

    it('delivers a PENDING message whose lease expired when its job is re-enqueued', async () => {
      const p = await buildPipeline();
      const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello', async: true });
      const id = String(log['id']);
      const past = new Date(p.core.clock.now().getTime() - 1_000);
      await p.core.storage.messages.transition(id, ['QUEUED'], { status: 'PENDING', attempts: 1, leaseUntil: past, updatedAt: past });
      expect(await p.deliver.execute(id)).to.include({ status: 'SENT', attempts: 2 });
      expect(p.providers.sms.received).to.have.length(1);
      expect(await p.entries()).to.have.length(1);
    });
  });
});
