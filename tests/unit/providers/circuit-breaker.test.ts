import { expect } from 'chai';
import { breakerAllows, breakerFailure, breakerSuccess, closedBreaker, type BreakerState } from '../../../core/domain/circuit-breaker.ts';

const policy = { threshold: 3, cooldownMs: 1_000 };

describe('circuit breaker', () => {
  it('stays closed below the failure threshold and opens at it', () => {
    let s: BreakerState = closedBreaker();
    s = breakerFailure(s, 0, policy);
    s = breakerFailure(s, 0, policy);
    expect(s.state).to.equal('closed');
    s = breakerFailure(s, 5, policy);
    expect(s).to.include({ state: 'open', openedAt: 5 });
    expect(breakerAllows(s, 500, policy).allowed).to.equal(false);
  });

  it('half-opens after the cool-down with exactly one trial, closing on success', () => {
    let s: BreakerState = { state: 'open', consecutiveFailures: 3, openedAt: 0, trialInFlight: false };
    const trial = breakerAllows(s, 1_000, policy);
    expect(trial.allowed).to.equal(true);
    s = trial.next;
    expect(s.state).to.equal('half-open');
    expect(breakerAllows(s, 1_001, policy).allowed).to.equal(false);
    expect(breakerSuccess().state).to.equal('closed');
  });

  it('re-opens when the half-open trial fails', () => {
    const halfOpen: BreakerState = { state: 'half-open', consecutiveFailures: 3, openedAt: 0, trialInFlight: true };
    const s = breakerFailure(halfOpen, 2_000, policy);
    expect(s).to.include({ state: 'open', openedAt: 2_000, trialInFlight: false });
  });

  it('resets the failure count on success', () => {
    const s = breakerFailure(breakerFailure(closedBreaker(), 0, policy), 0, policy);
    expect(breakerSuccess().consecutiveFailures).to.equal(0);
    expect(s.consecutiveFailures).to.equal(2);
  });
});
