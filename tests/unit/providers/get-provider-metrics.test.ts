import { expect } from 'chai';
import { FixedClock } from '../../../adapters/memory/fixed-clock.ts';
import { InMemoryProviderMetricsRepository } from '../../../adapters/memory/in-memory-provider-metrics-repository.ts';
import { InMemoryStorage } from '../../../adapters/memory/in-memory-storage.ts';
import { UuidV7IdGenerator } from '../../../adapters/security/uuid-v7-id-generator.ts';
import type { ProviderConfig, ProviderHealthCheck } from '../../../core/domain/provider.ts';
import { percentileCont } from '../../../core/domain/provider-metrics.ts';
import type { ProviderRepository } from '../../../core/ports/provider-repository.ts';
import { GetProviderMetrics } from '../../../core/use-cases/providers/get-provider-metrics.ts';
import { aMessage } from '../../contract/contract-fixtures.ts';

const NOW = new Date('2026-03-02T10:30:20.000Z');
const config: ProviderConfig = {
  id: 'prov-1', name: 'arkesel-main', vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active: true, countries: ['GH'], settings: {}, hasCredentials: true, organizationId: null, platformFallback: false,
  createdAt: NOW, updatedAt: NOW,
};
const check: ProviderHealthCheck = { id: 'hc-1', providerId: 'prov-1', ok: false, latencyMs: 80, detail: 'balance call failed', balance: null, checkedAt: new Date(NOW.getTime() - 5_000) };
/** Only what GetProviderMetrics reads of the provider repository. */
const providers = { list: async () => [config], latestHealth: async () => new Map([['prov-1', check]]) } as unknown as ProviderRepository;

async function setUp() {
  const storage = new InMemoryStorage(new UuidV7IdGenerator());
  const message = aMessage('org-1');
  await storage.messages.insertMany([message]);
  const record = (provider: string, at: string, durationMs: number, errorCode: string | null) => storage.messageStatus.recordAttempt({
    id: `${provider}-${at}`, messageId: message.id, attempt: 1, provider, outcome: errorCode ? 'FAILED' : 'ACCEPTED', retryable: false, errorCode,
    errorMessage: errorCode, providerMessageId: null, durationMs, createdAt: new Date(at),
  });
  await record('arkesel-main', '2026-03-02T10:30:05.000Z', 40, null);
  await record('arkesel-main', '2026-03-02T10:28:59.000Z', 60, 'TIMEOUT');
  await record('arkesel-main', '2026-03-02T10:27:59.999Z', 999, 'TIMEOUT'); // before a 3-minute window
  await record('sandbox', '2026-03-02T10:29:10.000Z', 1, null);
  const useCase = new GetProviderMetrics({
    metrics: new InMemoryProviderMetricsRepository(storage.state), providers, clock: new FixedClock(NOW), circuitOf: (id) => (id === 'prov-1' ? 'open' : null),
  });
  return useCase;
}

describe('GetProviderMetrics', () => {
  it('covers whole minutes up to the current one, zero-fills the series, and lists unconfigured providers found in attempts', async () => {
    const result = await (await setUp()).execute({ userId: 'admin' }, { minutes: '3' });
    expect(result.window).to.include({ minutes: 3, from: '2026-03-02T10:28:00.000Z', to: '2026-03-02T10:31:00.000Z' });
    expect(result.series).to.deep.equal([
      { minute: '2026-03-02T10:28:00.000Z', attempts: 1, failed: 1 },
      { minute: '2026-03-02T10:29:00.000Z', attempts: 1, failed: 0 },
      { minute: '2026-03-02T10:30:00.000Z', attempts: 1, failed: 0 },
    ]);
    const [main, sandbox] = result.providers;
    expect(main).to.deep.include({ id: 'prov-1', name: 'arkesel-main', attempts: 2, accepted: 1, failed: 1, errorRate: 0.5, circuit: 'open', topErrors: [{ code: 'TIMEOUT', count: 1 }] });
    expect(main!.latencyMs).to.deep.equal({ p50: 50, p95: 59, max: 60 });
    expect(main!.health).to.include({ status: 'degraded', ok: false });
    expect(main!.series.map((m) => m.p95Ms)).to.deep.equal([60, null, 40]);
    expect(sandbox).to.deep.include({ id: null, name: 'sandbox', attempts: 1, circuit: null, health: null });
    expect(result.circuitScope).to.equal('as seen by this API process');
    expect(result.queues.map((q) => q.channel)).to.deep.equal(['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE']);
  });

  it('defaults to 60 minutes and refuses minutes outside 1..60 with VALIDATION_ERROR', async () => {
    const useCase = await setUp();
    expect((await useCase.execute({ userId: 'admin' })).series).to.have.length(60);
    for (const minutes of ['0', '61', '1.5', 'x']) {
      const error = await useCase.execute({ userId: 'admin' }, { minutes }).then(() => null, (e: unknown) => e);
      expect(error, minutes).to.have.property('code', 'VALIDATION_ERROR');
    }
  });

  it('interpolates percentiles between ranks like percentile_cont', () => {
    expect([percentileCont([], 0.5), percentileCont([7], 0.95), percentileCont([10, 20, 30, 40, 50, 100], 0.95), percentileCont([1, 2], 0.5)]).to.deep.equal([null, 7, 88, 2]);
  });
});
