import { expect } from 'chai';
import { EMPTY_COUNTS } from '../../../core/domain/campaign.ts';
import { afterBatch, afterPoll, NO_PROGRESS, progressView, type FanOutProgress } from '../../../core/domain/campaign-progress.ts';

describe('campaign progress and ETA (recent rates)', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 5, 0, s));

  it('rates the fan-out from batch to batch (weighted to the recent ones) and counts down the rest of the audience', () => {
    let p: FanOutProgress = { ...NO_PROGRESS, audienceTotal: 10_000 };
    p = afterBatch(p, 1_000, at(0)); // the first batch only starts the clock
    expect(p).to.include({ processed: 1_000, fanOutRate: null });
    expect(progressView('SENDING', false, p, EMPTY_COUNTS, at(0))).to.include({ etaSeconds: null, percent: 10, phase: 'FAN_OUT' });
    p = afterBatch(p, 1_000, at(1)); // 1,000/s
    p = afterBatch(p, 1_000, at(3)); // 500/s now: blended 1000 * 0.8 + 500 * 0.2 = 900/s
    expect(p.fanOutRate).to.equal(900);
    const view = progressView('SENDING', false, p, { ...EMPTY_COUNTS, recipients: 3_000, queued: 2_900, delivered: 100 }, at(3));
    expect(view).to.include({ total: 10_000, processed: 3_000, queued: 2_900, sent: 100, percent: 30, ratePerSecond: 900, etaSeconds: 8 }); // 7,000 / 900 -> 8 s
    expect(view.estimatedCompletionAt).to.equal(at(11).toISOString());
    expect(progressView('PAUSED', false, p, EMPTY_COUNTS, at(3))).to.include({ paused: true, phase: null, etaSeconds: null, ratePerSecond: null });
  });

  it('after the fan-out, counts the queued messages down at the rate the completion polls measured', () => {
    let p: FanOutProgress = { ...NO_PROGRESS, audienceTotal: 100, processed: 100 };
    p = afterPoll(p, 20, at(0));
    p = afterPoll(p, 40, at(5)); // 4 messages/s settled
    const counts = { ...EMPTY_COUNTS, recipients: 100, queued: 50, pending: 10, sent: 30, failed: 5, rejected: 5 };
    expect(progressView('SENDING', true, p, counts, at(5))).to.include({ phase: 'DELIVERY', queued: 60, sent: 30, failed: 10, ratePerSecond: 4, etaSeconds: 15 });
    expect(progressView('COMPLETED', true, p, counts, at(5))).to.include({ phase: null, etaSeconds: null, percent: 100 });
  });
});
