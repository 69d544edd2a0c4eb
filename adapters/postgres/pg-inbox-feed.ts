import type { PGlite } from '@electric-sql/pglite';
import { createRequire } from 'node:module';
import type { InboxChange } from '../../core/domain/inbox.ts';
import type { InboxFeed } from '../../core/ports/inbox-feed.ts';
import { INBOX_NOTIFY_CHANNEL } from './sql-inbox-repository.ts';

type Listener = (change: InboxChange) => void;

/** The slice of a `pg` client used here (`pg` ships no types). */
interface PgClient {
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error', listener: (error: unknown) => void): void;
  on(event: 'end', listener: () => void): void;
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(import.meta.url)('pg') as { Client: new (options: Record<string, unknown>) => PgClient };

/** Shared by both feeds: parse a NOTIFY payload and hand it to every listener. */
abstract class NotifiedFeed implements InboxFeed {
  readonly #listeners = new Set<Listener>();
  #started: Promise<void> | null = null;

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  start(): Promise<void> {
    this.#started ??= this.listen().catch((error: unknown) => { this.#started = null; throw error; });
    return this.#started;
  }

  abstract close(): Promise<void>;
  protected abstract listen(): Promise<void>;

  protected dispatch(payload: string | undefined): void {
    if (!payload) return;
    let parsed: InboxChange | InboxChange[];
    try { parsed = JSON.parse(payload) as InboxChange | InboxChange[]; } catch { return; }
    // One change, or a group of them (SqlInboxRepository.insertMany announces several per NOTIFY).
    for (const change of Array.isArray(parsed) ? parsed : [parsed]) {
      for (const listener of this.#listeners) {
        try { listener(change); } catch { /* one stream's failure never stops the others */ }
      }
    }
  }
}

/**
 * PostgreSQL: one dedicated connection per process LISTENs on `nkra_inbox` (not one per subscriber).
 * A lost connection is reopened (1 s, 2 s ... 30 s); changes committed while it was down are not
 * replayed here: browsers catch up when they reconnect with Last-Event-ID (docs/inbox.md).
 */
export class PostgresInboxFeed extends NotifiedFeed {
  readonly #url: string;
  readonly #onError: (error: unknown) => void;
  #client: PgClient | null = null;
  #closed = false;
  #retryMs = 1_000;

  constructor(databaseUrl: string, onError: (error: unknown) => void = () => {}) {
    super();
    this.#url = databaseUrl;
    this.#onError = onError;
  }

  protected async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 5_000, keepAlive: true });
    client.on('notification', (message: { channel: string; payload?: string }) => {
      if (message.channel === INBOX_NOTIFY_CHANNEL) this.dispatch(message.payload);
    });
    client.on('error', (error: unknown) => { this.#onError(error); this.#reconnect(client); });
    client.on('end', () => this.#reconnect(client));
    await client.connect();
    await client.query(`listen ${INBOX_NOTIFY_CHANNEL}`);
    this.#client = client;
    this.#retryMs = 1_000;
  }

  #reconnect(client: PgClient): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => undefined);
    const delay = this.#retryMs;
    this.#retryMs = Math.min(30_000, this.#retryMs * 2);
    setTimeout(() => {
      if (!this.#closed) this.listen().catch((error: unknown) => { this.#onError(error); this.#client = client; this.#reconnect(client); });
    }, delay).unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}

/** The embedded PGlite: LISTEN on the process's own instance (NOTIFY is delivered when the writing transaction commits). */
export class PgliteInboxFeed extends NotifiedFeed {
  readonly #db: PGlite;
  #unlisten: (() => Promise<void>) | null = null;
  constructor(db: PGlite) { super(); this.#db = db; }

  protected async listen(): Promise<void> {
    this.#unlisten = await this.#db.listen(INBOX_NOTIFY_CHANNEL, (payload) => this.dispatch(payload));
  }

  async close(): Promise<void> {
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    if (unlisten && !this.#db.closed) await unlisten().catch(() => undefined);
  }
}
