import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { MetaWhatsappProvider } from '../../../adapters/providers/meta-whatsapp.ts';
import { DEFAULT_BREAKER_POLICY } from '../../../core/domain/circuit-breaker.ts';
import type { ProviderResult } from '../../../core/ports/channel-provider.ts';
import { metaError, startFakeMetaWhatsapp } from '../../support/fake-vendors/meta-whatsapp.ts';
import { buildPipeline, caught, ghPhone, permanent } from './messaging-fixtures.ts';

/** Twilio's 401 code 20003 as the adapter reads it: our credentials were refused, not the recipient. */
const authRevoked = (): ProviderResult => ({ accepted: false, retryable: false, accountLevel: true, errorCode: 'AUTH_FAILED', errorMessage: 'Twilio: auth failed (HTTP 401, Twilio error 20003)' });

describe('DeliverMessage: account-level failures fail over (docs/failover.md)', () => {
  it('moves a message refused for our account (401 code 20003) to the next provider, and the first one\'s circuit counts the failure', async () => {
    const first = new RecordingProvider('SMS', 'twilio');
    first.next = authRevoked;
    const guarded = new GuardedProvider(first, { breaker: DEFAULT_BREAKER_POLICY, maxConcurrency: 4, maxPerSecond: 0 });
    const second = new RecordingProvider('SMS', 'hubtel');
    const p = await buildPipeline({ liveSms: [guarded as unknown as RecordingProvider, second] });

    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });

    expect(log).to.include({ status: 'SENT', provider: 'hubtel', attempts: 1 });
    expect(second.received.map((m) => m.to)).to.deep.equal([ghPhone(1)]);
    expect(guarded.consecutiveFailures).to.equal(1);
    expect(await p.entries('REFUND')).to.have.length(0);
  });

  it('opens the circuit of a provider whose account keeps being refused, so later messages skip it at once', async () => {
    const first = new RecordingProvider('SMS', 'twilio');
    first.next = authRevoked;
    const guarded = new GuardedProvider(first, { breaker: { threshold: 3, cooldownMs: 60_000 }, maxConcurrency: 4, maxPerSecond: 0 });
    const message = { messageId: 'm', internalMessageId: 'n', organizationId: 'o', channel: 'SMS' as const, to: ghPhone(1), subject: null, body: 'hi', senderId: null };
    for (let i = 0; i < 3; i += 1) expect(await guarded.send(message)).to.include({ errorCode: 'AUTH_FAILED', accountLevel: true });
    expect(guarded.circuit).to.equal('open');
    expect(await guarded.send(message)).to.include({ errorCode: 'CIRCUIT_OPEN', retryable: true });
    expect(first.received).to.have.length(3);
  });

  it('still ends the message on the recipient\'s failure (invalid number): no failover, refunded, circuit untouched', async () => {
    const first = new RecordingProvider('SMS', 'twilio');
    first.next = () => ({ ...permanent(), errorCode: 'INVALID_NUMBER' });
    const guarded = new GuardedProvider(first, { breaker: DEFAULT_BREAKER_POLICY, maxConcurrency: 4, maxPerSecond: 0 });
    const second = new RecordingProvider('SMS', 'hubtel');
    const p = await buildPipeline({ liveSms: [guarded as unknown as RecordingProvider, second] });

    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello' });

    expect(log).to.include({ status: 'FAILED', errorCode: 'INVALID_NUMBER', cost: 0 });
    expect(second.received).to.have.length(0);
    expect(guarded.consecutiveFailures).to.equal(0);
    expect(await p.balance()).to.equal(10_000);
  });

  it('keeps the message PENDING (charged) when every provider refuses our account, then fails and refunds it after maxAttempts', async () => {
    const only = new RecordingProvider('SMS', 'twilio');
    only.next = authRevoked;
    const p = await buildPipeline({ liveSms: [only], maxAttempts: 2 });
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hello', async: true });
    const id = String(log['id']);

    expect(await caught(() => p.deliver.execute(id))).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(await p.stored(id)).to.include({ status: 'PENDING', errorCode: 'AUTH_FAILED', cost: 3 });
    expect(await p.deliver.execute(id)).to.include({ status: 'FAILED', errorCode: 'AUTH_FAILED', cost: 0 });
    expect(await p.balance()).to.equal(10_000);
  });

  // Meta's error-code reference (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes): code 80007
  // "Rate limit issues" and code 4 "API Too Many Calls" come with HTTP 400. Documented body:
  // { "error": { "message": "(#80007) Rate limit issues", "type": "OAuthException", "code": 80007, "error_data": { "messaging_product": "whatsapp", "details": "..." }, "fbtrace_id": "..." } }
  it('retries WhatsApp throttling that Meta sends as HTTP 400 (codes 80007 and 4): PENDING, charge kept, never refunded', async () => {
    const meta = await startFakeMetaWhatsapp();
    try {
      const provider = new MetaWhatsappProvider({ credentials: { accessToken: meta.accessToken }, phoneNumberId: meta.phoneNumberId, apiVersion: meta.apiVersion, baseUrl: meta.url, timeoutMs: 2_000 });
      const p = await buildPipeline({ livePush: [provider], maxAttempts: 5 });
      const template = await p.template({ channel: 'WHATSAPP', body: 'Order {{order}} shipped', status: 'APPROVED' });
      const { log } = await p.send.execute(p.live, { channel: 'WHATSAPP', to: ghPhone(3), templateId: template.id, variables: { order: 'A1' }, async: true });
      const id = String(log['id']);
      const cost = (await p.stored(id)).cost;

      for (const code of [80007, 4]) {
        meta.script({ kind: 'error', status: 400, body: metaError(code, code === 4 ? '(#4) Application request limit reached' : '(#80007) Rate limit issues') });
        expect(await caught(() => p.deliver.execute(id)), String(code)).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
        expect(await p.stored(id), String(code)).to.include({ status: 'PENDING', errorCode: 'RATE_LIMITED', cost });
      }
      expect(await p.entries('REFUND')).to.have.length(0);
      expect(await p.deliver.execute(id)).to.include({ status: 'SENT' });
    } finally {
      await meta.close();
    }
  });
});
