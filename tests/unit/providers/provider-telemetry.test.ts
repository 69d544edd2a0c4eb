import { expect } from 'chai';
import { PassThrough } from 'node:stream';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { createLogger } from '../../../hosts/logger.ts';
import { ProviderTelemetry } from '../../../hosts/provider-telemetry.ts';

const message = (i: number): OutboundMessage => ({
  messageId: `msg-${i}`, internalMessageId: `int-${i}`, organizationId: 'org-1', channel: 'SMS', to: '+233241234567', subject: null,
  body: `Your secret code is 99${i}`, senderId: null,
});

describe('ProviderTelemetry: per-provider metrics and log lines from the guarded vendor calls', () => {
  it('counts calls by outcome and error code, times them, logs each failure with its message id (never the body) and every circuit change', async () => {
    const lines: string[] = [];
    const out = new PassThrough();
    out.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').trim().split('\n')));
    const telemetry = new ProviderTelemetry(createLogger('info', out));
    const vendor = new RecordingProvider('SMS', 'flaky-sms');
    const guarded = new GuardedProvider(vendor, { breaker: { threshold: 3, cooldownMs: 60_000 }, maxConcurrency: 5, maxPerSecond: 0, observer: telemetry });

    expect((await guarded.send(message(0))).accepted).to.equal(true);
    vendor.next = () => ({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE', errorMessage: 'HTTP 503' });
    for (let i = 1; i <= 3; i += 1) await guarded.send(message(i));
    expect(await guarded.send(message(4))).to.include({ errorCode: 'CIRCUIT_OPEN' }); // not a vendor call

    const text = await telemetry.registry.metrics();
    expect(text).to.include('nkra_provider_requests_total{provider="flaky-sms",channel="SMS",outcome="accepted",error_code=""} 1');
    expect(text).to.include('nkra_provider_requests_total{provider="flaky-sms",channel="SMS",outcome="failed",error_code="VENDOR_UNAVAILABLE"} 3');
    expect(text).to.include('nkra_provider_request_duration_seconds_count{provider="flaky-sms"} 4');
    expect(text).to.include('nkra_provider_circuit_state{provider="flaky-sms"} 2');
    expect(text).to.include('nkra_provider_in_flight{provider="flaky-sms"} 0');

    await new Promise((resolve) => setImmediate(resolve));
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const failures = logged.filter((l) => l['event'] === 'provider.failure');
    expect(failures.map((l) => l['messageId'])).to.deep.equal(['msg-1', 'msg-2', 'msg-3']);
    expect(failures[0]).to.include({ provider: 'flaky-sms', errorCode: 'VENDOR_UNAVAILABLE', retryable: true, next: 'failover or retry' });
    expect(logged.filter((l) => l['event'] === 'provider.circuit').map((l) => [l['from'], l['to']])).to.deep.equal([['closed', 'open']]);
    expect(lines.join('\n')).to.not.include('secret code');
  });
});
