import type { DeliveryTraceStore } from '../telemetry/delivery-trace-store.ts';
import type { TraceCarrier } from '../telemetry/tracing.ts';
import type { Database } from './database.ts';
import { sqlRows } from './sql-rows.ts';

const RECORD_SQL = `insert into delivery_traces (provider, provider_message_id, traceparent, tracestate) values ($1, $2, $3, $4)
  on conflict (provider, provider_message_id) do update set traceparent = excluded.traceparent, tracestate = excluded.tracestate, created_at = now()`;
const FIND_SQL = `select traceparent, tracestate from delivery_traces where provider = any($1::text[]) and provider_message_id = $2
  order by array_position($1::text[], provider) limit 1`;
const PRUNE_SQL = `delete from delivery_traces where created_at < now() - interval '7 days'`;
/** Every this many records, rows older than 7 days are deleted (reports come within hours; the table stays small). */
const PRUNE_EVERY = 1_000;

/** `delivery_traces` (migration 0064); used only with tracing on (docs/adr/0042-tracing.md). */
export class SqlDeliveryTraceStore implements DeliveryTraceStore {
  readonly #database: Database;
  #records = 0;
  constructor(database: Database) { this.#database = database; }

  async record(provider: string, providerMessageId: string, carrier: TraceCarrier): Promise<void> {
    const traceparent = carrier['traceparent'];
    if (!traceparent) return;
    const em = this.#database.em();
    await sqlRows(em, RECORD_SQL, [provider, providerMessageId, traceparent, carrier['tracestate'] ?? null], { prepare: true });
    this.#records += 1;
    if (this.#records % PRUNE_EVERY === 0) await sqlRows(em, PRUNE_SQL, []);
  }

  async find(providers: readonly string[], providerMessageId: string): Promise<TraceCarrier | null> {
    const [row] = await sqlRows<{ traceparent: string; tracestate: string | null }>(this.#database.em(), FIND_SQL, [[...providers], providerMessageId]);
    if (!row) return null;
    return row.tracestate ? { traceparent: row.traceparent, tracestate: row.tracestate } : { traceparent: row.traceparent };
  }
}
