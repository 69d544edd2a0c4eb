import type { EntityManager } from '@mikro-orm/sql';

/**
 * Runs one parameterized statement ($1, $2 ...) on the connection of `em` (inside its transaction,
 * if any), skipping the ORM's query building and hydration: on the send and delivery paths those cost
 * more CPU than the statement itself (docs/performance.md, bench:send).
 *
 * `prepare: true` makes it a named prepared statement on PostgreSQL (database.ts), parsed and planned
 * once per connection; only for statements whose generic plan is as good as any (lookups by primary
 * key, inserts). Statements whose best plan depends on the values (an organization's size, the number
 * of recipients) stay unnamed: PostgreSQL plans those for the values of each call.
 */
export async function sqlRows<R>(em: EntityManager, text: string, params: readonly unknown[], options: { prepare?: boolean } = {}): Promise<R[]> {
  if (options.prepare) markPrepared(text);
  const result = await em.getKysely().executeQuery({ sql: text, parameters: params, query: { kind: 'RawNode' }, queryId: { queryId: 'nkra' } } as never);
  return result.rows as R[];
}

const MAX_PREPARED = 256;
const preparedNames = new Map<string, string>();

/** Marks a statement text to run as a named prepared statement (the first MAX_PREPARED texts; later ones run unnamed). */
function markPrepared(text: string): void {
  if (!preparedNames.has(text) && preparedNames.size < MAX_PREPARED) preparedNames.set(text, `nkra_${preparedNames.size + 1}`);
}

/** The prepared statement name of a text marked by `sqlRows(..., { prepare: true })`, if any. */
export function preparedName(text: string): string | undefined {
  return preparedNames.get(text);
}

interface EntityColumns {
  /** Property name -> column name. */
  columns: ReadonlyMap<string, string>;
  /** `column as "property", ...` for every property: raw rows keyed like the entity. */
  selectList: string;
}

const cache = new WeakMap<object, EntityColumns>();

/** The columns of an entity, from the ORM's metadata (built once per entity). */
export function entityColumns(em: EntityManager, entity: object): EntityColumns {
  let found = cache.get(entity);
  if (!found) {
    const props = em.getMetadata(entity as never).props;
    const columns = new Map(props.map((p) => [p.name as string, p.fieldNames[0]!]));
    found = { columns, selectList: [...columns].map(([name, column]) => `${column} as "${name}"`).join(', ') };
    cache.set(entity, found);
  }
  return found;
}

/** A timestamp of a raw row: a Date, or the database's text of it (the driver leaves timestamps as text). */
export function toDate(value: Date | string | null | undefined): Date | null {
  return value === null || value === undefined ? null : value instanceof Date ? value : new Date(value);
}
