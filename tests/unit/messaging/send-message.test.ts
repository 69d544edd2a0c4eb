import { expect } from 'chai';
import { SYNC_SAFETY_NET_SECONDS } from '../../../core/use-cases/messaging/accept-messages.ts';
import { buildPipeline, caught, ghPhone } from './messaging-fixtures.ts';

describe('SendMessage', () => {
  describe('live sends', () => {
    it('delivers a sync send inline: SENT with its cost and segments, one DEBIT of exactly the price', async () => {
      const p = await buildPipeline();
      const result = await p.send.execute(p.live, { channel: 'SMS', to: '024 100 0001', body: 'Your order has shipped' });
      expect(result.queued).to.equal(false);
      expect(result.log).to.include({ status: 'SENT', channel: 'SMS', recipient: '+233241000001', cost: 0.03, segments: 1, encoding: 'GSM-7', provider: 'live-sms', attempts: 1 });

      const [stored] = await p.messages();
      expect(stored).to.include({ status: 'SENT', cost: 3, price: 3, segments: 1, providerMessageId: `rec_${stored!.internalMessageId}` });
      expect(p.providers.sms.received.map((m) => [m.to, m.body])).to.deep.equal([['+233241000001', 'Your order has shipped']]);
      expect(await p.balance()).to.equal(10_000 - 3);
      const debits = await p.entries();
      expect(debits.map((e) => [e.kind, e.amount, e.balanceAfter])).to.deep.equal([['DEBIT', -3, 9_997]]);
    });

    it('answers DELIVERED when the provider confirms delivery at once', async () => {
      const p = await buildPipeline();
      p.providers.sms.next = (m) => ({ accepted: true, providerMessageId: `x_${m.messageId}`, delivered: true });
      const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi' });
      expect(log).to.include({ status: 'DELIVERED' });
      expect(log['deliveredAt']).to.be.a('string');
    });

    it('charges per segment: a 161-character GSM-7 text is 2 segments, one Twi letter forces UCS-2', async () => {
      const p = await buildPipeline();
      const long = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'a'.repeat(161) });
      expect(long.log).to.include({ segments: 2, encoding: 'GSM-7', cost: 0.06 });
      const twi = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: `Mepa wo kyɛw ${'a'.repeat(60)}` });
      expect(twi.log).to.include({ segments: 2, encoding: 'UCS-2', cost: 0.06 });
      expect(await p.balance()).to.equal(10_000 - 12);
    });

    it('queues an async send: QUEUED, charged once, one delivery job carrying only the id, nothing sent yet', async () => {
      const p = await buildPipeline();
      const result = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'later', async: true });
      expect(result.queued).to.equal(true);
      expect(result.log).to.include({ status: 'QUEUED', cost: 0.03, attempts: 0 });
      expect(p.takeJobs()).to.deep.equal([{ queue: 'notification-send', data: { messageId: result.log['id'] }, startAfterSeconds: 0 }]);
      expect(p.providers.sms.received).to.have.length(0);
      expect(await p.balance()).to.equal(9_997);
    });

    it('enqueues a delayed safety-net job for a sync send, which finds the message SENT and changes nothing', async () => {
      const p = await buildPipeline();
      const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'now' });
      const jobs = p.takeJobs();
      expect(jobs.map((j) => [j.data['messageId'], j.startAfterSeconds])).to.deep.equal([[log['id'], SYNC_SAFETY_NET_SECONDS]]);
      await p.deliver.execute(String(log['id']));
      expect(p.providers.sms.received).to.have.length(1);
      expect((await p.stored(String(log['id']))).status).to.equal('SENT');
      expect(await p.entries('DEBIT')).to.have.length(1);
    });

    it('refuses a send the balance cannot cover with INSUFFICIENT_BALANCE: nothing recorded, queued, sent or charged', async () => {
      const p = await buildPipeline({ balance: 2 });
      const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'costs 3 pesewas', idempotencyKey: 'k-1' }));
      expect(error.code).to.equal('INSUFFICIENT_BALANCE');
      expect(error.details).to.deep.equal({ balance: 0.02, required: 0.03 });
      expect(await p.messages()).to.have.length(0);
      expect(p.takeJobs()).to.have.length(0);
      expect(p.providers.sms.received).to.have.length(0);
      expect(await p.balance()).to.equal(2);
      expect(await p.entries()).to.have.length(0);
      // The rolled-back request did not keep its idempotency key: a retry after a top-up goes through.
      await p.core.storage.wallets.update(p.organizationId, () => ({ amount: 100, kind: 'TOP_UP', reference: 'top-up-2', description: 'top-up' }), p.core.clock.now());
      const retry = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'costs 3 pesewas', idempotencyKey: 'k-1' });
      expect(retry).to.include({ replayed: false });
      expect(retry.log).to.include({ status: 'SENT' });
    });
  });

  describe('sandbox sends', () => {
    it('run the whole pipeline but are never charged and never reach a live provider', async () => {
      const p = await buildPipeline({ balance: 0 });
      const sync = await p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(1), body: 'test' });
      const queued = await p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(2), body: 'test', async: true });
      expect(sync.log).to.include({ status: 'SENT', cost: 0, isSandbox: true, provider: 'sandbox' });
      expect(queued.log).to.include({ status: 'QUEUED', cost: 0, isSandbox: true });
      await p.deliver.execute(String(queued.log['id']));

      expect(p.providers.sandboxSms.received.map((m) => m.to)).to.deep.equal([ghPhone(1), ghPhone(2)]);
      expect(p.providers.sms.received).to.have.length(0);
      expect((await p.messages()).map((m) => [m.status, m.cost, m.price])).to.deep.equal([['SENT', 0, 3], ['SENT', 0, 3]]);
      expect(await p.balance()).to.equal(0);
      expect(await p.entries()).to.have.length(0);
    });

    it('is not refunded when the sandbox fails it: nothing was charged', async () => {
      const p = await buildPipeline();
      p.providers.sandboxSms.next = () => ({ accepted: false, retryable: false, errorCode: 'SANDBOX_REJECTED', errorMessage: 'magic recipient' });
      const { log } = await p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(1), body: 'test' });
      expect(log).to.include({ status: 'FAILED', errorCode: 'SANDBOX_REJECTED', cost: 0 });
      expect(await p.entries()).to.have.length(0);
      expect(await p.balance()).to.equal(10_000);
    });
  });

  describe('validation', () => {
    it('rejects a phone number that is not valid for the country with VALIDATION_ERROR on `to`', async () => {
      const p = await buildPipeline();
      const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: '0241', body: 'hi' }));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.deep.equal({ to: ['to is too short to be a phone number for GH'] });
      const letters = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: '024-CALL-ME', body: 'hi' }));
      expect(letters.details['fieldErrors']).to.have.all.keys('to');
      expect(await p.messages()).to.have.length(0);
    });

    it('rejects a missing template variable, naming it, instead of sending a blank', async () => {
      const p = await buildPipeline();
      const template = await p.template({});
      const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), templateId: template.id, variables: { name: 'Ama' } }));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.deep.equal({ variables: ['missing template variable: order'] });
      expect(p.providers.sms.received).to.have.length(0);
    });

    it('renders an approved template with its variables', async () => {
      const p = await buildPipeline();
      const template = await p.template({});
      const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), templateId: template.id, variables: { name: 'Ama & Kofi', order: '<A-17>' } });
      expect(log).to.include({ status: 'SENT', templateId: template.id });
      expect(p.providers.sms.received[0]?.body).to.equal('Hi Ama & Kofi, order <A-17> has shipped'); // no HTML escaping in SMS
    });

    it('refuses a template of another channel or another organization with VALIDATION_ERROR on templateId', async () => {
      const p = await buildPipeline();
      const email = await p.template({ channel: 'EMAIL', subject: 'Hi' });
      const foreign = await p.template({ organizationId: 'another-org' });
      for (const templateId of [email.id, foreign.id]) {
        const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), templateId, variables: { name: 'A', order: '1' } }));
        expect(error.code).to.equal('VALIDATION_ERROR');
        expect(error.details['fieldErrors']).to.have.all.keys('templateId');
      }
      expect(await p.messages()).to.have.length(0);
    });

    it('refuses a template still waiting for approval with TEMPLATE_NOT_APPROVED', async () => {
      const p = await buildPipeline();
      const template = await p.template({ category: 'MARKETING', status: 'PENDING_APPROVAL' });
      const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), templateId: template.id, variables: { name: 'Ama', order: '1' } }));
      expect(error.code).to.equal('TEMPLATE_NOT_APPROVED');
      expect(await p.messages()).to.have.length(0);
    });

    it('requires a subject for EMAIL, falling back to the template subject', async () => {
      const p = await buildPipeline();
      const error = await caught(() => p.send.execute(p.live, { channel: 'EMAIL', to: 'ama@example.com', body: '<p>Hello</p>' }));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.have.all.keys('subject');

      const template = await p.template({ channel: 'EMAIL', subject: 'Order {{order}}', body: '<p>Hi {{name}}</p>' });
      const { log } = await p.send.execute(p.live, { channel: 'EMAIL', to: 'Ama@Example.COM', templateId: template.id, variables: { name: '<Ama>', order: 'A-1' } });
      expect(log).to.include({ status: 'SENT', recipient: 'Ama@example.com', cost: 0.01 });
      expect(p.providers.email.received.map((m) => [m.subject, m.body])).to.deep.equal([['Order A-1', '<p>Hi &lt;Ama&gt;</p>']]);
    });

    it('rejects an email subject over 998 characters', async () => {
      const p = await buildPipeline();
      const error = await caught(() => p.send.execute(p.live, { channel: 'EMAIL', to: 'ama@example.com', subject: 's'.repeat(999), body: 'hi' }));
      expect(error.code).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors']).to.have.all.keys('subject');
    });
  });
});
