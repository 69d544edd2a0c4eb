import { expect } from 'chai';
import type { Message } from '../../core/domain/message.ts';
import type { MessageAttempt } from '../../core/ports/message-status-repository.ts';
import type { ChannelQueueFigures, ProviderMetricsRepository } from '../../core/ports/provider-metrics-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, seedOrganization, uniqueId } from './contract-fixtures.ts';

/** A minute-aligned instant the attempts are placed around. */
const BASE = new Date('2026-03-02T09:00:00.000Z');
const after = (seconds: number) => new Date(BASE.getTime() + seconds * 1000);

/** What a contract run needs: the storage to seed messages and attempts with, and the repository reading the same data. */
export interface ProviderMetricsFixture {
  storage: Storage;
  metrics: ProviderMetricsRepository;
}

/**
 * The ProviderMetricsRepository contract (core/ports/provider-metrics-repository.ts), run against every
 * adapter. The database is shared with the run's other suites: attempts here carry provider names of
 * their own, and queue figures are compared before and after this suite's messages.
 */
export function describeProviderMetricsContract(name: string, make: () => Promise<ProviderMetricsFixture>): void {
  describe(`ProviderMetricsRepository contract: ${name}`, () => {
    let storage: Storage;
    let metrics: ProviderMetricsRepository;
    let org: string;
    before(async () => {
      ({ storage, metrics } = await make());
      org = (await seedOrganization(storage)).id;
    });

    const attempt = (message: Message, provider: string, seconds: number, durationMs: number, errorCode: string | null | 'ok'): MessageAttempt => ({
      id: uniqueId('att'), messageId: message.id, attempt: 1, provider, outcome: errorCode === 'ok' ? 'ACCEPTED' : 'FAILED', retryable: false,
      errorCode: errorCode === 'ok' ? null : errorCode, errorMessage: errorCode === 'ok' ? null : 'failed', providerMessageId: null, durationMs, createdAt: after(seconds),
    });

    it('answers per provider counts, latency percentiles, top error codes and a per-minute series of the window [from, to)', async () => {
      const [a, b] = [uniqueId('metrics-a'), uniqueId('metrics-b')];
      const message = aMessage(org);
      await storage.messages.insertMany([message]);
      for (const row of [
        attempt(message, a, 0, 10, 'ok'), attempt(message, a, 10, 20, 'ok'), attempt(message, a, 59, 30, 'INVALID_NUMBER'),
        attempt(message, a, 60, 40, 'TIMEOUT'), attempt(message, a, 61, 100, 'INVALID_NUMBER'), attempt(message, a, 119, 50, null),
        attempt(message, b, -1, 999, 'ok'), attempt(message, b, 120, 999, 'TIMEOUT'), attempt(message, b, 90, 7, 'ok'),
      ]) await storage.messageStatus.recordAttempt(row);

      const { providers, minutes } = await metrics.attempts(BASE, after(120), 2);
      const mine = providers.filter((p) => p.provider === a || p.provider === b);
      expect(mine).to.deep.equal([
        { provider: a, attempts: 6, accepted: 2, failed: 4, p50Ms: 35, p95Ms: 88, maxMs: 100, errors: [{ code: 'INVALID_NUMBER', count: 2 }, { code: 'TIMEOUT', count: 1 }] },
        { provider: b, attempts: 1, accepted: 1, failed: 0, p50Ms: 7, p95Ms: 7, maxMs: 7, errors: [] },
      ].sort((x, y) => (x.provider < y.provider ? -1 : 1)));
      expect(minutes.filter((m) => m.provider === a).map((m) => ({ ...m, minute: m.minute.toISOString() }))).to.deep.equal([
        { provider: a, minute: BASE.toISOString(), attempts: 3, failed: 1, p95Ms: 29 },
        { provider: a, minute: after(60).toISOString(), attempts: 3, failed: 3, p95Ms: 95 },
      ]);
      expect(minutes.filter((m) => m.provider === b).map((m) => m.minute.toISOString())).to.deep.equal([after(60).toISOString()]);
      const all = providers.map((p) => p.provider);
      expect(all).to.deep.equal([...all].sort());
    });

    it('counts QUEUED and PENDING messages per channel with the oldest QUEUED one, and forgets them once they move on', async () => {
      const oldest = new Date('2001-01-01T00:00:00.000Z');
      const waiting = [
        aMessage(org, { status: 'QUEUED', attempts: 0, provider: null, createdAt: oldest }),
        aMessage(org, { status: 'QUEUED', attempts: 0, provider: null }),
        aMessage(org, { status: 'PENDING', attempts: 1, provider: null }),
        aMessage(org, { status: 'PENDING', attempts: 1, provider: null, channel: 'EMAIL', recipient: 'ama@example.com' }),
      ];
      const before = await metrics.queues();
      await storage.messages.insertMany([...waiting, aMessage(org, { status: 'SENT' })]);
      const during = await metrics.queues();
      const of = (figures: ChannelQueueFigures[], channel: string) => figures.find((f) => f.channel === channel) ?? { queued: 0, pending: 0, oldestQueuedAt: null };
      expect([of(during, 'SMS').queued - of(before, 'SMS').queued, of(during, 'SMS').pending - of(before, 'SMS').pending]).to.deep.equal([2, 1]);
      expect([of(during, 'EMAIL').queued - of(before, 'EMAIL').queued, of(during, 'EMAIL').pending - of(before, 'EMAIL').pending]).to.deep.equal([0, 1]);
      expect(of(during, 'SMS').oldestQueuedAt?.toISOString()).to.equal(oldest.toISOString());
      expect(during.map((f) => f.channel)).to.deep.equal([...during.map((f) => f.channel)].sort());

      for (const m of waiting) await storage.messages.transition(m.id, ['QUEUED', 'PENDING'], { status: 'FAILED', errorCode: 'TEST', errorMessage: 'done', updatedAt: new Date() });
      const later = await metrics.queues();
      for (const channel of ['SMS', 'EMAIL']) expect(of(later, channel)).to.deep.equal(of(before, channel));
    });
  });
}
