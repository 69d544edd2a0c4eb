import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { Campaign } from '../../../core/domain/campaign.ts';
import type { RunCampaign } from '../../../core/use-cases/campaigns/run-campaign.ts';
import { createLogger } from '../../../hosts/logger.ts';
import { campaignRunHandler } from '../../../hosts/worker/campaign-run-handler.ts';

/**
 * Issue 35: a campaign waiting on a send window is polled every minute for hours; the worker logs its
 * state changes (fan-out batches, the start of the wait, completion), not each poll.
 */
describe('campaign-run handler: logs state changes, not polls', () => {
  it('logs each fan-out batch, the wait once however many polls, then the completion', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); done(); } });
    const base = { id: 'c1', organizationId: 'o1', status: 'SENDING', fanOutDone: false, failureReason: null, progress: { processed: 0 } } as unknown as Campaign;
    const script: Campaign[] = [
      { ...base, progress: { ...base.progress, processed: 500 } },
      { ...base, progress: { ...base.progress, processed: 1000 } },
      ...Array.from({ length: 30 }, () => ({ ...base, fanOutDone: true, progress: { ...base.progress, processed: 1000 } })), // 30 polls at night
      { ...base, status: 'COMPLETED', fanOutDone: true },
      { ...base, status: 'COMPLETED', fanOutDone: true }, // a redelivered job after completion
    ] as Campaign[];
    const run = { execute: async () => script.shift()! } as unknown as RunCampaign;
    const handler = campaignRunHandler(run, createLogger('info', sink));
    while (script.length > 0) await handler.handle({ campaignId: 'c1', organizationId: 'o1' });
    await new Promise((resolve) => setImmediate(resolve));
    const steps = lines.filter((l) => l['event'] === 'campaign.step');
    expect(steps.map((l) => [l['status'], Boolean(l['waiting'])])).to.deep.equal([
      ['SENDING', false], ['SENDING', false], ['SENDING', true], ['COMPLETED', false], ['COMPLETED', false],
    ]);
  });
});
