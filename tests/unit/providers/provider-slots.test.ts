import { expect } from 'chai';
import type { DeliveryLane } from '../../../core/domain/delivery-lane.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../../core/ports/channel-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { ProviderSlotQueue } from '../../../adapters/providers/provider-slot-queue.ts';

/** A vendor that holds every request until the test lets it answer, recording the order requests reached it. */
class HeldVendor implements ChannelProvider {
  readonly name = 'held';
  readonly channel = 'SMS' as const;
  readonly reached: string[] = [];
  readonly #pending: Array<() => void> = [];
  async send(message: OutboundMessage): Promise<ProviderResult> {
    this.reached.push(message.messageId);
    await new Promise<void>((resolve) => this.#pending.push(resolve));
    return { accepted: true, providerMessageId: message.messageId, delivered: false };
  }
  /** Answers the oldest request still held. */
  answerOne(): void { this.#pending.shift()?.(); }
  get held(): number { return this.#pending.length; }
}

const message = (id: string, organizationId: string, lane?: DeliveryLane): OutboundMessage => ({
  messageId: id, internalMessageId: `msg_${id}`, organizationId, ...(lane ? { lane } : {}), channel: 'SMS', to: '+233241000001', subject: null, body: 'hi', senderId: null,
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('GuardedProvider: who gets a freed concurrency slot', () => {
  async function saturated(): Promise<{ vendor: HeldVendor; guarded: GuardedProvider; sends: Array<Promise<ProviderResult>> }> {
    const vendor = new HeldVendor();
    const guarded = new GuardedProvider(vendor, { breaker: { threshold: 5, cooldownMs: 1_000 }, maxConcurrency: 2, maxPerSecond: 0 });
    const sends = [guarded.send(message('a-running-1', 'A', 'MARKETING')), guarded.send(message('a-running-2', 'A', 'MARKETING'))];
    await tick();
    expect(vendor.held).to.equal(2);
    return { vendor, guarded, sends };
  }

  async function drain(vendor: HeldVendor, sends: Array<Promise<ProviderResult>>): Promise<void> {
    while (vendor.reached.length < sends.length || vendor.held > 0) { vendor.answerOne(); await tick(); }
    await Promise.all(sends);
  }

  it('gives the next slot to another organization\'s one send, not to the backlog fetched before it', async () => {
    const { vendor, sends } = await saturated().then(async (s) => {
      for (let i = 1; i <= 5; i += 1) s.sends.push(s.guarded.send(message(`a-waiting-${i}`, 'A', 'TRANSACTIONAL')));
      s.sends.push(s.guarded.send(message('b-1', 'B', 'TRANSACTIONAL')));
      return s;
    });
    await tick();
    await drain(vendor, sends);
    // A's first waiter came with nothing of A's waiting (its two were in flight), as did B's: both before A's backlog.
    expect(vendor.reached.slice(2, 4)).to.deep.equal(['a-waiting-1', 'b-1']);
    expect(vendor.reached.filter((id) => id.startsWith('a-waiting'))).to.deep.equal(['a-waiting-1', 'a-waiting-2', 'a-waiting-3', 'a-waiting-4', 'a-waiting-5']);
  });

  it('serves a higher lane first: a passcode waiting behind marketing goes next', async () => {
    const s = await saturated();
    for (let i = 1; i <= 3; i += 1) s.sends.push(s.guarded.send(message(`a-bulk-${i}`, 'A', 'MARKETING')));
    s.sends.push(s.guarded.send(message('a-note', 'A', 'TRANSACTIONAL')));
    s.sends.push(s.guarded.send(message('a-otp', 'A', 'OTP')));
    await tick();
    await drain(s.vendor, s.sends);
    expect(s.vendor.reached.slice(2)).to.deep.equal(['a-otp', 'a-note', 'a-bulk-1', 'a-bulk-2', 'a-bulk-3']);
  });

  it('never has more requests at the vendor than maxConcurrency, and frees every slot at the end', async () => {
    const vendor = new HeldVendor();
    const guarded = new GuardedProvider(vendor, { breaker: { threshold: 5, cooldownMs: 1_000 }, maxConcurrency: 3, maxPerSecond: 0 });
    const sends = Array.from({ length: 30 }, (_, i) => guarded.send(message(`m${i}`, `org-${i % 4}`, i % 3 === 0 ? 'OTP' : 'MARKETING')));
    let most = 0;
    while (vendor.reached.length < 30 || vendor.held > 0) {
      await tick();
      most = Math.max(most, vendor.held);
      vendor.answerOne();
    }
    await Promise.all(sends);
    expect(most).to.equal(3);
    expect(new Set(vendor.reached).size).to.equal(30);
    // All free again: three more go through at once.
    const more = [0, 1, 2].map((i) => guarded.send(message(`n${i}`, 'C')));
    await tick();
    expect(vendor.held).to.equal(3);
    await drain(vendor, more);
  });
});

describe('ProviderSlotQueue', () => {
  it('serves an organization with nothing waiting first, then the backlogged ones in arrival order', () => {
    const queue = new ProviderSlotQueue();
    const woken: string[] = [];
    const push = (org: string, i: number) => queue.push({ organizationId: org, lane: 'TRANSACTIONAL' }, () => woken.push(`${org}${i}`));
    push('A', 1); push('A', 2); push('B', 1); push('B', 2); push('A', 3); push('C', 1);
    expect(queue.size).to.equal(6);
    for (let next = queue.next(); next; next = queue.next()) next();
    // A1, B1 and C1 each arrived with nothing of theirs waiting; the rest came behind their own.
    expect(woken).to.deep.equal(['A1', 'B1', 'C1', 'A2', 'B2', 'A3']);
    expect(queue.size).to.equal(0);
    // Once an organization's line is empty, its next send is sparse again.
    push('A', 4); push('A', 5); push('D', 1);
    for (let next = queue.next(); next; next = queue.next()) next();
    expect(woken.slice(6)).to.deep.equal(['A4', 'D1', 'A5']);
  });

  it('puts a send without a lane in TRANSACTIONAL', () => {
    const queue = new ProviderSlotQueue();
    const woken: string[] = [];
    queue.push({ organizationId: 'A', lane: 'MARKETING' }, () => woken.push('marketing'));
    queue.push({ organizationId: 'A' }, () => woken.push('no lane'));
    queue.push({ organizationId: 'A', lane: 'OTP' }, () => woken.push('otp'));
    for (let next = queue.next(); next; next = queue.next()) next();
    expect(woken).to.deep.equal(['otp', 'no lane', 'marketing']);
  });
});
