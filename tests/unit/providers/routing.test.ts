import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { RoutedProviderDirectory } from '../../../adapters/providers/routed-provider-directory.ts';
import { routeCandidates, type ProviderConfig } from '../../../core/domain/provider.ts';
import type { Channel } from '../../../core/domain/channel.ts';

function provider(name: string, channel: Channel, priority: number, countries: string[], active = true): ProviderConfig {
  const at = new Date('2026-01-01T00:00:00Z');
  return { id: name, name, vendor: 'test', channel, priority, active, settings: {}, countries, hasCredentials: false, organizationId: null, platformFallback: true, createdAt: at, updatedAt: at };
}

const CONFIGS = [
  provider('twilio', 'SMS', 50, ['*']),
  provider('hubtel', 'SMS', 2, ['GH']),
  provider('arkesel', 'SMS', 1, ['GH']),
  provider('africas-talking', 'SMS', 1, ['NG', 'KE']),
  provider('retired', 'SMS', 0, ['GH'], false),
  provider('sendgrid', 'EMAIL', 1, ['*']),
];

describe('provider routing', () => {
  it('routes GH to Arkesel then Hubtel, then the default route; NG to Africa\'s Talking; elsewhere to the default', () => {
    expect(routeCandidates(CONFIGS, 'SMS', 'GH').map((p) => p.name)).to.deep.equal(['arkesel', 'hubtel', 'twilio']);
    expect(routeCandidates(CONFIGS, 'SMS', 'ng').map((p) => p.name)).to.deep.equal(['africas-talking', 'twilio']);
    expect(routeCandidates(CONFIGS, 'SMS', 'FR').map((p) => p.name)).to.deep.equal(['twilio']);
    expect(routeCandidates(CONFIGS, 'EMAIL', null).map((p) => p.name)).to.deep.equal(['sendgrid']);
    expect(routeCandidates(CONFIGS, 'VOICE', 'GH')).to.deep.equal([]);
  });

  it('moves a provider with an open circuit or a failed health check to the back, without dropping it', async () => {
    const guarded = (name: string) => new GuardedProvider(new RecordingProvider('SMS', name), { breaker: { threshold: 1, cooldownMs: 60_000 }, maxConcurrency: 5, maxPerSecond: 0 });
    const entries = CONFIGS.filter((c) => c.channel === 'SMS' && c.active).map((config) => ({ config, provider: guarded(config.name) }));
    const directory = new RoutedProviderDirectory(entries, []);
    const arkesel = entries.find((e) => e.config.name === 'arkesel')!;
    (arkesel.provider.inner as RecordingProvider).next = () => ({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE', errorMessage: 'down' });
    await arkesel.provider.send({ messageId: 'm', internalMessageId: 'm', organizationId: 'o', channel: 'SMS', to: '+233241234567', subject: null, body: 'x', senderId: null });
    expect(arkesel.provider.circuit).to.equal('open');
    directory.setHealth('hubtel', false);
    expect(directory.providersFor('SMS', 'GH', false).map((p) => p.name)).to.deep.equal(['twilio', 'arkesel', 'hubtel']);
  });

  it('answers CIRCUIT_OPEN (retryable) without calling the vendor while the circuit is open', async () => {
    const inner = new RecordingProvider('SMS', 'flaky');
    inner.next = () => ({ accepted: false, retryable: true, errorCode: 'TIMEOUT', errorMessage: 'slow' });
    let now = 0;
    const guarded = new GuardedProvider(inner, { breaker: { threshold: 2, cooldownMs: 1_000 }, maxConcurrency: 5, maxPerSecond: 0, now: () => now });
    const msg = { messageId: 'm', internalMessageId: 'm', organizationId: 'o', channel: 'SMS' as const, to: '+233241234567', subject: null, body: 'x', senderId: null };
    await guarded.send(msg);
    await guarded.send(msg);
    const blocked = await guarded.send(msg);
    expect(blocked).to.include({ accepted: false, retryable: true, errorCode: 'CIRCUIT_OPEN' });
    expect(inner.received).to.have.length(2);
    now = 1_000;
    inner.next = (m) => ({ accepted: true, providerMessageId: `ok-${m.messageId}`, delivered: false });
    expect((await guarded.send(msg)).accepted).to.equal(true);
    expect(guarded.circuit).to.equal('closed');
  });

  it('does not count permanent failures (a bad number) against the provider', async () => {
    const inner = new RecordingProvider('SMS', 'strict');
    inner.next = () => ({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER', errorMessage: 'bad number' });
    const guarded = new GuardedProvider(inner, { breaker: { threshold: 1, cooldownMs: 1_000 }, maxConcurrency: 5, maxPerSecond: 0 });
    await guarded.send({ messageId: 'm', internalMessageId: 'm', organizationId: 'o', channel: 'SMS', to: '+1', subject: null, body: 'x', senderId: null });
    expect(guarded.circuit).to.equal('closed');
  });

  it('never has more requests in flight than maxConcurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow = new RecordingProvider('SMS', 'slow');
    const original = slow.send.bind(slow);
    slow.send = async (m) => { inFlight += 1; peak = Math.max(peak, inFlight); await new Promise((r) => setTimeout(r, 5)); inFlight -= 1; return original(m); };
    const guarded = new GuardedProvider(slow, { breaker: { threshold: 5, cooldownMs: 1_000 }, maxConcurrency: 3, maxPerSecond: 0 });
    await Promise.all(Array.from({ length: 12 }, (_, i) => guarded.send({ messageId: `m${i}`, internalMessageId: `m${i}`, organizationId: 'o', channel: 'SMS', to: '+233241234567', subject: null, body: 'x', senderId: null })));
    expect(peak).to.equal(3);
    expect(slow.received).to.have.length(12);
  });

  it('does not let the sends queued behind maxConcurrency reach a vendor whose circuit opened while they waited', async () => {
    const dead = new RecordingProvider('SMS', 'dead');
    const original = dead.send.bind(dead);
    dead.next = () => ({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE', errorMessage: 'down' });
    dead.send = async (m) => { await new Promise((r) => setTimeout(r, 5)); return original(m); };
    const guarded = new GuardedProvider(dead, { breaker: { threshold: 3, cooldownMs: 60_000 }, maxConcurrency: 2, maxPerSecond: 0 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => guarded.send({ messageId: `m${i}`, internalMessageId: `m${i}`, organizationId: 'o', channel: 'SMS', to: '+233241234567', subject: null, body: 'x', senderId: null })));
    // The threshold, plus the one send already in flight beside the third failure.
    expect(dead.received.length).to.be.at.most(4);
    expect(results.filter((r) => !r.accepted && r.errorCode === 'CIRCUIT_OPEN')).to.have.length(20 - dead.received.length);
    expect(guarded.circuit).to.equal('open');
  });
});
