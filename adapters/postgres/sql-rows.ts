import type { EntityManager } from '@mikro-orm/sql';

/**
 * Runs one parameterized statement ($1, $2 ...) on the connection of `em` (inside its transaction,
 * if any), skipping the ORM's query building and hydration: on the send and delivery paths those cost
 * more CPU than the statement itself (docs/performance.md, bench:send). On PostgreSQL a parameterized
 * statement runs as a prepared statement (database.ts), planned once per connection.
 */
export async function sqlRows<R>(em: EntityManager, text: string, params: readonly unknown[]): Promise<R[]> {
  const result = await em.getKysely().executeQuery({ sql: text, parameters: params, query: { kind: 'RawNode' }, queryId: { queryId: 'nkra' } } as never);
  return result.rows as R[];
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
