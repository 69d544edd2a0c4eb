import { expect } from 'chai';
import { buildPipeline, ghPhone, type Pipeline } from './messaging-fixtures.ts';

/** A blocked send is a REJECTED delivery log with its code and cost 0: never delivered, never charged, never queued. */
async function expectBlocked(p: Pipeline, log: Record<string, unknown>, errorCode: string): Promise<void> {
  expect(log).to.include({ status: 'REJECTED', errorCode, cost: 0 });
  const stored = await p.stored(String(log['id']));
  expect(stored).to.include({ status: 'REJECTED', errorCode, cost: 0, attempts: 0 });
  expect(p.takeJobs().filter((j) => j.data['messageId'] === log['id'])).to.have.length(0);
  expect(p.providers.sms.received.filter((m) => m.messageId === log['id'])).to.have.length(0);
}

describe('Fraud checks and suppression on every send', () => {
  it('rejects a premium-rate number (UK 0871) with FRAUD_PREMIUM_RATE', async () => {
    const p = await buildPipeline();
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: '+448712345678', body: 'win a prize' });
    await expectBlocked(p, log, 'FRAUD_PREMIUM_RATE');
    expect(log['errorMessage']).to.equal('Premium-rate numbers are blocked');
    expect(await p.balance()).to.equal(10_000);
    expect(await p.entries()).to.have.length(0);
  });

  it('rejects an international-network number (+881 satellite) with FRAUD_PREMIUM_RATE', async () => {
    const p = await buildPipeline();
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: '+881612345678', body: 'hello' });
    await expectBlocked(p, log, 'FRAUD_PREMIUM_RATE');
    expect(log['errorMessage']).to.equal('International network numbers are blocked');
    expect(await p.balance()).to.equal(10_000);
  });

  it('rejects the message past N to one recipient within an hour with FRAUD_RECIPIENT_VELOCITY, and allows it again an hour later', async () => {
    const p = await buildPipeline({ fraud: { recipientPerHour: 2 } });
    const first = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '1' });
    const second = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '2', async: true });
    const other = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: 'another recipient' });
    p.takeJobs();
    const third = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '3' });
    expect([first.log['status'], second.log['status'], other.log['status']]).to.deep.equal(['SENT', 'QUEUED', 'SENT']);
    await expectBlocked(p, third.log, 'FRAUD_RECIPIENT_VELOCITY');
    expect(await p.entries('DEBIT')).to.have.length(3);
    expect(await p.balance()).to.equal(10_000 - 9);

    p.core.clock.advance(3_600_001);
    const later = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '4' });
    expect(later.log['status']).to.equal('SENT');
  });

  it('counts rejected messages out of the velocity window (a blocked send does not lock the recipient out longer)', async () => {
    const p = await buildPipeline({ fraud: { recipientPerHour: 1 } });
    await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '1' });
    for (let i = 0; i < 3; i += 1) expect((await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'again' })).log['status']).to.equal('REJECTED');
    p.core.clock.advance(3_600_001);
    expect((await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'ok' })).log['status']).to.equal('SENT');
  });

  it('caps a new organization at M messages per hour with FRAUD_NEW_TENANT_CAP, lifted once it is D days old', async () => {
    const p = await buildPipeline({ fraud: { newTenantDays: 7, newTenantPerHour: 2 } });
    await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: '1' });
    await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: '2' });
    const third = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(3), body: '3' });
    await expectBlocked(p, third.log, 'FRAUD_NEW_TENANT_CAP');
    expect(await p.balance()).to.equal(10_000 - 6);

    p.core.clock.advance(7 * 24 * 3_600_000);
    for (let i = 4; i < 8; i += 1) expect((await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(i), body: 'grown up' })).log['status']).to.equal('SENT');
  });

  it('applies the new-tenant cap inside one bulk request: items past the cap are REJECTED, the rest charged in one debit', async () => {
    const p = await buildPipeline({ fraud: { newTenantPerHour: 3 } });
    const messages = Array.from({ length: 5 }, (_, i) => ({ channel: 'SMS', to: ghPhone(i), body: 'bulk' }));
    const { logs } = await p.bulk.execute(p.live, { messages, async: true });
    expect(logs.map((l) => [l['status'], l['errorCode'] ?? null])).to.deep.equal([
      ['QUEUED', null], ['QUEUED', null], ['QUEUED', null], ['REJECTED', 'FRAUD_NEW_TENANT_CAP'], ['REJECTED', 'FRAUD_NEW_TENANT_CAP']]);
    expect(p.takeJobs()).to.have.length(3);
    expect((await p.entries()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -9]]);
  });

  it('rejects every send of a paused organization with FRAUD_TENANT_PAUSED, sandbox included', async () => {
    const p = await buildPipeline();
    await p.pause();
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi' });
    await expectBlocked(p, log, 'FRAUD_TENANT_PAUSED');
    const sandbox = await p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(1), body: 'hi' });
    expect(sandbox.log).to.include({ status: 'REJECTED', errorCode: 'FRAUD_TENANT_PAUSED' });
    const { logs } = await p.bulk.execute(p.live, { messages: [{ channel: 'SMS', to: ghPhone(2), body: 'a' }, { channel: 'SMS', to: ghPhone(3), body: 'b' }] });
    expect(logs.map((l) => l['errorCode'])).to.deep.equal(['FRAUD_TENANT_PAUSED', 'FRAUD_TENANT_PAUSED']);
    expect(p.providers.sandboxSms.received).to.have.length(0);
    expect(await p.balance()).to.equal(10_000);
    expect(await p.entries()).to.have.length(0);
  });

  it('rejects a suppressed recipient with RECIPIENT_SUPPRESSED: a phone entry without channel blocks every channel', async () => {
    const p = await buildPipeline();
    await p.suppress({ phone: ghPhone(1) });
    const sms = await p.send.execute(p.live, { channel: 'SMS', to: '024 100 0001', body: 'hi' });
    await expectBlocked(p, sms.log, 'RECIPIENT_SUPPRESSED');
    await p.openWhatsappWindow(ghPhone(1));
    const whatsapp = await p.send.execute(p.live, { channel: 'WHATSAPP', to: ghPhone(1), body: 'hi' });
    expect(whatsapp.log).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_SUPPRESSED', cost: 0 });
    expect(await p.balance()).to.equal(10_000);
  });

  it('matches a suppressed email case-insensitively, only on the entry\'s channel', async () => {
    const p = await buildPipeline();
    await p.suppress({ email: 'optout@example.com' }, 'EMAIL');
    await p.suppress({ phone: ghPhone(2) }, 'WHATSAPP');
    const email = await p.send.execute(p.live, { channel: 'EMAIL', to: 'OptOut@Example.com', subject: 'Hi', body: 'hi' });
    expect(email.log).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_SUPPRESSED', cost: 0 });
    const sms = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: 'not suppressed on SMS' });
    expect(sms.log).to.include({ status: 'SENT' });
    expect(p.providers.email.received).to.have.length(0);
    expect((await p.entries()).map((e) => e.amount)).to.deep.equal([-3]);
  });
});
