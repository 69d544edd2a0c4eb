import { expect } from 'chai';
import { buildPipeline, caught, ghPhone, permanent } from './messaging-fixtures.ts';

const item = (n: number, extra: Record<string, unknown> = {}) => ({ channel: 'SMS', to: ghPhone(n), body: `Message ${n}`, ...extra });

describe('SendBulkMessages', () => {
  it('sends 1-100 messages: one delivery log each, one DEBIT for the whole batch', async () => {
    const p = await buildPipeline();
    const { logs, queued } = await p.bulk.execute(p.live, { messages: Array.from({ length: 100 }, (_, i) => item(i)) });
    expect(queued).to.equal(false);
    expect(logs).to.have.length(100);
    expect(new Set(logs.map((l) => l['status']))).to.deep.equal(new Set(['SENT']));
    expect(logs.map((l) => l['recipient'])).to.deep.equal(Array.from({ length: 100 }, (_, i) => ghPhone(i)));
    expect(p.providers.sms.received).to.have.length(100);
    expect((await p.entries()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -300]]);
    expect(await p.balance()).to.equal(10_000 - 300);
  });

  it('queues an async bulk: QUEUED logs and one job per message', async () => {
    const p = await buildPipeline();
    const { logs, queued } = await p.bulk.execute(p.live, { async: true, messages: [item(1), item(2), item(3)] });
    expect(queued).to.equal(true);
    expect(logs.map((l) => l['status'])).to.deep.equal(['QUEUED', 'QUEUED', 'QUEUED']);
    expect(p.takeJobs().map((j) => j.data['messageId'])).to.deep.equal(logs.map((l) => l['id']));
    expect(p.providers.sms.received).to.have.length(0);
  });

  it('rejects 0 and 101 messages with VALIDATION_ERROR on `messages`', async () => {
    const p = await buildPipeline();
    for (const [count, text] of [[0, 'must contain at least 1 message'], [101, 'must contain at most 100 messages']] as const) {
      const error = await caught(() => p.bulk.execute(p.live, { messages: Array.from({ length: count }, (_, i) => item(i)) }));
      expect(error.code, String(count)).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.deep.equal({ messages: [text] });
    }
    expect(await p.messages()).to.have.length(0);
    expect(await p.entries()).to.have.length(0);
  });

  it('refuses the whole request when one item is invalid, naming the item: nothing recorded or charged', async () => {
    const p = await buildPipeline();
    const messages = [item(1), item(2), item(3, { to: '12' }), item(4)];
    const error = await caught(() => p.bulk.execute(p.live, { messages }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details).to.include({ index: 2 });
    expect(error.details['fieldErrors']).to.deep.equal({ messages: ['messages[2].to: to is too short to be a phone number for GH'] });

    const schemaError = await caught(() => p.bulk.execute(p.live, { messages: [item(1), { channel: 'FAX', to: ghPhone(2), body: 'x' }] }));
    expect(schemaError.details['fieldErrors']).to.deep.equal({ messages: ['messages[1].channel: must be one of SMS, WHATSAPP, EMAIL, PUSH, VOICE, IN_APP'] });
    expect(await p.messages()).to.have.length(0);
    expect(await p.entries()).to.have.length(0);
    expect(p.providers.sms.received).to.have.length(0);
  });

  it('refuses a bulk the balance cannot cover as a whole with INSUFFICIENT_BALANCE, recording nothing', async () => {
    const p = await buildPipeline({ balance: 8 });
    const error = await caught(() => p.bulk.execute(p.live, { messages: [item(1), item(2), item(3)] }));
    expect(error.code).to.equal('INSUFFICIENT_BALANCE');
    expect(await p.messages()).to.have.length(0);
    expect(await p.balance()).to.equal(8);
  });

  it('refunds only the items that failed at the provider', async () => {
    const p = await buildPipeline();
    p.providers.sms.next = (m) => (m.to === ghPhone(2) ? permanent() : { accepted: true, providerMessageId: `ok_${m.messageId}`, delivered: false });
    const { logs } = await p.bulk.execute(p.live, { messages: [item(1), item(2), item(3)] });
    expect(logs.map((l) => [l['status'], l['cost']])).to.deep.equal([['SENT', 0.03], ['FAILED', 0], ['SENT', 0.03]]);
    expect((await p.entries()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -9], ['REFUND', 3]]);
    expect(await p.balance()).to.equal(10_000 - 6);
  });
});
