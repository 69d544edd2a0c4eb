import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { AppError } from '../../../core/errors.ts';
import { inboxItemView, type InboxChange, type InboxItemView } from '../../../core/domain/inbox.ts';
import type { InboxFeed } from '../../../core/ports/inbox-feed.ts';
import type { InboxRepository } from '../../../core/ports/inbox-repository.ts';
import type { InboxStreamLeases } from '../../../core/ports/inbox-stream-leases.ts';
import type { SubscriberPrincipal } from '../../../core/use-cases/inbox/authenticate-subscriber.ts';
import type { Logger } from '../../logger.ts';

export interface InboxStreamLimits {
  /** Open streams one subscriber may hold, in all processes together (tabs, devices); the next one is 429 RATE_LIMITED. */
  perSubscriber: number;
  /** Open streams in this process; the next one is 503 SERVICE_UNAVAILABLE. */
  total: number;
  /** A comment line this often keeps proxies from closing idle streams. */
  heartbeatMs: number;
  /** Bytes a slow client may have waiting; past that its stream is closed (it reconnects and resumes with Last-Event-ID). */
  bufferBytes: number;
  /** How long an open stream's lease lives without renewal: the slots of a process that died are free again after this. */
  leaseTtlMs: number;
  /** How often the process renews the leases of its open streams (well within leaseTtlMs). */
  leaseRenewMs: number;
}

export const DEFAULT_STREAM_LIMITS: InboxStreamLimits = {
  perSubscriber: 10, total: 20_000, heartbeatMs: 25_000, bufferBytes: 64 * 1024, leaseTtlMs: 60_000, leaseRenewMs: 20_000,
};
/** Items replayed to a stream that resumes with Last-Event-ID (older ones: read the feed). */
const RESUME_MAX = 100;

interface Stream { key: string; res: ServerResponse; leaseId: string }

/**
 * The process's Server-Sent Events streams (docs/inbox.md): subscribes once to the InboxFeed (one
 * LISTEN connection per process) and writes each change to the open streams of its subscriber only.
 * Small items come whole in the notification; bigger ones are read once per change, not per stream.
 * Each open stream holds a lease in InboxStreamLeases, so the per-subscriber limit is counted across
 * every process; the per-process total is this process's own resource, counted here.
 */
export class InboxStreams {
  readonly #feed: InboxFeed;
  readonly #inbox: () => InboxRepository;
  readonly #limits: InboxStreamLimits;
  readonly #logger: Logger;
  readonly #leases: InboxStreamLeases;
  /** This process, as the holder of its streams' leases. */
  readonly #holder = randomUUID();
  readonly #streams = new Map<string, Set<Stream>>();
  #count = 0;
  /** Streams being opened (awaiting their lease and first reads), counted against `total` before any await. */
  #opening = 0;
  #renewal: NodeJS.Timeout | null = null;
  #started: Promise<void> | null = null;
  #unsubscribe: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | null = null;

  constructor(feed: InboxFeed, inbox: () => InboxRepository, leases: InboxStreamLeases, logger: Logger, limits: Partial<InboxStreamLimits> = {}) {
    this.#feed = feed;
    this.#leases = leases;
    this.#inbox = inbox;
    this.#logger = logger;
    this.#limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
  }

  get size(): number { return this.#count; }

  /** Opens a stream on `res` for the subscriber: headers, counts, the items after `lastEventId`, then live changes. */
  async open(subscriber: SubscriberPrincipal, res: ServerResponse, lastEventId: string | undefined): Promise<void> {
    await this.#start();
    const key = keyOf(subscriber.organizationId, subscriber.subscriberId);
    if (this.#count + this.#opening >= this.#limits.total) throw new AppError('SERVICE_UNAVAILABLE', 'This server holds as many inbox streams as it may; retry later');
    this.#opening += 1;
    const leaseId = randomUUID();
    let leased = false;
    let counts: Awaited<ReturnType<InboxRepository['counts']>>;
    let missed: Awaited<ReturnType<InboxRepository['listAfter']>>;
    try {
      const now = Date.now();
      leased = await this.#leases.acquire({ id: leaseId, organizationId: subscriber.organizationId, subscriberId: subscriber.subscriberId, holder: this.#holder },
        this.#limits.perSubscriber, new Date(now), new Date(now + this.#limits.leaseTtlMs));
      if (!leased) throw new AppError('RATE_LIMITED', `At most ${this.#limits.perSubscriber} open inbox streams per subscriber`, { retryAfterSeconds: 30 });
      const inbox = this.#inbox();
      [counts, missed] = await Promise.all([
        inbox.counts(subscriber.organizationId, subscriber.subscriberId),
        lastEventId ? inbox.listAfter(subscriber.organizationId, subscriber.subscriberId, lastEventId, RESUME_MAX) : Promise.resolve([]),
      ]);
      if (res.destroyed) throw new AppError('SERVICE_UNAVAILABLE', 'The client went away'); // nothing to stream to: free the slot now
    } catch (error) {
      if (leased) this.#release([leaseId]);
      throw error;
    } finally {
      this.#opening -= 1;
    }
    res.socket?.setNoDelay(true);
    res.socket?.setTimeout(0);
    res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    const stream: Stream = { key, res, leaseId };
    let chunk = `retry: 3000\n\nevent: counts\ndata: ${JSON.stringify(counts)}\n\n`;
    for (const item of missed) chunk += itemEvent(inboxItemView(item));
    res.write(chunk);
    const set = this.#streams.get(key) ?? new Set<Stream>();
    set.add(stream);
    this.#streams.set(key, set);
    this.#count += 1;
    res.once('close', () => {
      if (set.delete(stream)) {
        this.#count -= 1;
        this.#release([leaseId]);
      }
      if (set.size === 0 && this.#streams.get(key) === set) this.#streams.delete(key);
    });
  }

  /** Ends every stream and stops listening (shutdown). */
  async close(): Promise<void> {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    if (this.#renewal) clearInterval(this.#renewal);
    this.#renewal = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    const leaseIds = [...this.#streams.values()].flatMap((set) => [...set].map((s) => s.leaseId));
    for (const set of this.#streams.values()) for (const s of set) s.res.end();
    this.#streams.clear();
    await this.#leases.release(leaseIds).catch((error: unknown) => this.#logger.warn({ err: error }, 'inbox stream leases not released: they lapse on their own'));
    this.#count = 0;
    this.#started = null;
    await this.#feed.close();
  }

  #start(): Promise<void> {
    this.#started ??= (async () => {
      this.#unsubscribe = this.#feed.subscribe((change) => { this.#dispatch(change).catch((error: unknown) => this.#logger.error({ err: error }, 'inbox stream dispatch failed')); });
      await this.#feed.start();
      this.#heartbeat = setInterval(() => this.#broadcastHeartbeat(), this.#limits.heartbeatMs);
      this.#heartbeat.unref();
      this.#renewal = setInterval(() => this.#renew(), this.#limits.leaseRenewMs);
      this.#renewal.unref();
    })().catch((error: unknown) => { this.#started = null; this.#unsubscribe?.(); throw error; });
    return this.#started;
  }

  async #dispatch(change: InboxChange): Promise<void> {
    const set = this.#streams.get(keyOf(change.organizationId, change.subscriberId));
    if (!set || set.size === 0) return; // nobody here listens to this subscriber: nothing to read or write
    let chunk: string;
    if (change.kind === 'item') {
      const item = change.item ?? await this.#inbox().findById(change.organizationId, change.subscriberId, change.itemId).then((i) => (i ? inboxItemView(i) : null));
      if (!item) return;
      chunk = itemEvent(item);
    } else {
      const counts = await this.#inbox().counts(change.organizationId, change.subscriberId);
      chunk = `event: marked\ndata: ${JSON.stringify({ ids: change.itemIds, mark: change.mark })}\n\nevent: counts\ndata: ${JSON.stringify(counts)}\n\n`;
    }
    for (const stream of set) this.#write(stream, chunk);
  }

  /** Keeps the leases of this process's open streams alive (a process that dies stops, and its slots lapse). */
  #renew(): void {
    const now = Date.now();
    const ids = [...this.#streams.values()].flatMap((set) => [...set].map((s) => s.leaseId));
    this.#leases.renew(ids, new Date(now), new Date(now + this.#limits.leaseTtlMs))
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'inbox stream leases not renewed'));
  }

  #release(ids: string[]): void {
    this.#leases.release(ids).catch((error: unknown) => this.#logger.warn({ err: error }, 'inbox stream lease not released: it lapses on its own'));
  }

  #broadcastHeartbeat(): void {
    for (const set of this.#streams.values()) for (const stream of set) this.#write(stream, ': heartbeat\n\n');
  }

  /** Writes, or closes a stream whose client does not keep up (bounded memory per connection). */
  #write(stream: Stream, chunk: string): void {
    if (stream.res.writableEnded || stream.res.destroyed) return;
    if (stream.res.writableLength > this.#limits.bufferBytes) {
      stream.res.destroy();
      return;
    }
    stream.res.write(chunk);
  }
}

function keyOf(organizationId: string, subscriberId: string): string {
  return `${organizationId}\n${subscriberId}`;
}

function itemEvent(item: InboxItemView): string {
  return `id: ${item.id}\nevent: item\ndata: ${JSON.stringify(item)}\n\n`;
}
