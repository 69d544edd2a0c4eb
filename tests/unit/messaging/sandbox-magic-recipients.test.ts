import { expect } from 'chai';
import { SandboxProvider } from '../../../adapters/providers/sandbox-provider.ts';
import { CHANNELS } from '../../../core/domain/channel.ts';
import { buildPipeline, caught } from './messaging-fixtures.ts';

const token = (prefix: string) => `${prefix}${'a'.repeat(100)}`;

/** The table of docs/sandbox.md, through the whole pipeline with the real sandbox provider. */
describe('Sandbox magic recipients (docs/sandbox.md)', () => {
  const pipeline = () => buildPipeline({ balance: 0, sandbox: CHANNELS.map((c) => new SandboxProvider(c, 20)) });

  it('delivers any other recipient at once, on every channel, at no cost', async () => {
    const p = await pipeline();
    for (const [channel, to] of [['SMS', '024 123 4567'], ['WHATSAPP', '+233241234567'], ['VOICE', '0241234567'], ['EMAIL', 'ama@example.com'], ['PUSH', token('device:')]]) {
      const { log } = await p.send.execute(p.sandbox, { channel, to, body: 'hi', subject: 'Hi' });
      expect(log, channel).to.include({ status: 'DELIVERED', cost: 0, provider: 'sandbox', isSandbox: true });
    }
    expect(await p.entries()).to.have.length(0);
  });

  it('answers SENT, FAILED SANDBOX_REJECTED, PENDING SANDBOX_UNAVAILABLE and slow DELIVERED for the magic phones, emails and tokens', async () => {
    const p = await pipeline();
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['SMS', '020 999 0004', { status: 'SENT' }],
      ['SMS', '+233209990001', { status: 'FAILED', errorCode: 'SANDBOX_REJECTED' }],
      ['WHATSAPP', '+233209990002', { status: 'PENDING' }],
      ['VOICE', '+233209990003', { status: 'DELIVERED' }],
      ['EMAIL', 'sent@example.org', { status: 'SENT' }],
      ['EMAIL', 'Fail@example.com', { status: 'FAILED', errorCode: 'SANDBOX_REJECTED' }],
      ['EMAIL', 'transient@example.com', { status: 'PENDING' }],
      ['EMAIL', 'slow@example.com', { status: 'DELIVERED' }],
      ['PUSH', token('sent:'), { status: 'SENT' }],
      ['PUSH', token('fail:'), { status: 'FAILED', errorCode: 'SANDBOX_REJECTED' }],
      ['PUSH', token('transient:'), { status: 'PENDING' }],
      ['PUSH', token('slow:'), { status: 'DELIVERED' }],
    ];
    for (const [channel, to, expected] of cases) {
      const { log } = await p.send.execute(p.sandbox, { channel, to, body: 'hi', subject: 'Hi' });
      expect(log, `${channel} ${to}`).to.include({ ...expected, cost: 0 });
    }
  });

  it('fails a transient magic recipient after DELIVERY_MAX_ATTEMPTS with SANDBOX_UNAVAILABLE, nothing to refund', async () => {
    const p = await buildPipeline({ maxAttempts: 2, sandbox: [new SandboxProvider('SMS', 0)] });
    const { log } = await p.send.execute(p.sandbox, { channel: 'SMS', to: '+233209990002', body: 'hi' });
    expect(await p.stored(String(log['id']))).to.include({ status: 'PENDING', errorCode: 'SANDBOX_UNAVAILABLE', attempts: 1 });
    expect(await p.deliver.execute(String(log['id']))).to.include({ status: 'FAILED', errorCode: 'SANDBOX_UNAVAILABLE', attempts: 2, cost: 0 });
    expect(await p.entries()).to.have.length(0);
  });

  it('still applies the fraud rules: the 21st message to one magic number within an hour is REJECTED', async () => {
    const p = await pipeline();
    for (let i = 0; i < 20; i += 1) await p.send.execute(p.sandbox, { channel: 'SMS', to: '+233209990004', body: `n${i}` });
    const { log } = await p.send.execute(p.sandbox, { channel: 'SMS', to: '+233209990004', body: 'one more' });
    expect(log).to.include({ status: 'REJECTED', errorCode: 'FRAUD_RECIPIENT_VELOCITY', cost: 0 });
    expect((await caught(() => p.send.execute(p.sandbox, { channel: 'PUSH', to: 'fail:short', body: 'x' }))).code).to.equal('VALIDATION_ERROR');
  });
});
