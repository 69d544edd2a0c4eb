import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';

describe('GuardedProvider: the vendor\'s MPS limit', function () {
  this.timeout(10_000);

  it('never lets more than maxPerSecond submissions through in any one-second window, even for a burst', async () => {
    const inner = new RecordingProvider('SMS', 'paced');
    const times: number[] = [];
    inner.next = (m) => { times.push(Date.now()); return { accepted: true, providerMessageId: m.messageId, delivered: false }; };
    const guarded = new GuardedProvider(inner, { breaker: { threshold: 5, cooldownMs: 1_000 }, maxConcurrency: 50, maxPerSecond: 10 });

    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => guarded.send({
      messageId: `m${i}`, internalMessageId: `msg_${i}`, organizationId: 'org', channel: 'SMS', to: '+233241000001', subject: null, body: 'hi', senderId: null,
    })));

    expect(results.every((r) => r.accepted)).to.equal(true);
    expect(times).to.have.length(25);
    for (const start of times) expect(times.filter((t) => t >= start && t < start + 1_000).length).to.be.at.most(10);
    expect(times[24]! - times[0]!).to.be.at.least(2_000); // 25 at 10 a second: the last two tens waited a window each
  });
});
