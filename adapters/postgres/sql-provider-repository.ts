import type { Channel } from '../../core/domain/channel.ts';
import type { ProviderConfig, ProviderHealthCheck } from '../../core/domain/provider.ts';
import type { CredentialCipher } from '../../core/ports/credential-cipher.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { PlatformProviderFields, ProviderFields, ProviderRepository, ProviderWithCredentials } from '../../core/ports/provider-repository.ts';
import type { EntityManager } from '@mikro-orm/sql';
import { translateUniqueViolation } from './db-errors.ts';
import { countOf, underLimitLock } from './organization-lock.ts';
import type { Database } from './database.ts';

interface ProviderRow {
  id: string; name: string; vendor: string; channel: string; priority: number; active: boolean;
  settings: Record<string, string> | string; countries: string[] | string; credentials_encrypted: string | null;
  organization_id: string | null; platform_fallback: boolean; callback_id?: string | null; created_at: Date | string; updated_at: Date | string;
}
interface HealthRow { id: string; provider_id: string; ok: boolean; latency_ms: number; detail: string; balance: string | number | null; checked_at: Date | string }

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

/** Providers in SQL (a small platform table); credentials stored only as ciphertext. */
export class SqlProviderRepository implements ProviderRepository {
  readonly #database: Database;
  readonly #cipher: CredentialCipher;
  readonly #ids: IdGenerator;
  constructor(database: Database, cipher: CredentialCipher, ids: IdGenerator) { this.#database = database; this.#cipher = cipher; this.#ids = ids; }

  async list(): Promise<ProviderConfig[]> {
    return (await this.#rows('select * from providers where organization_id is null order by channel, priority, name')).map(toConfig);
  }

  async findById(id: string): Promise<ProviderConfig | null> {
    const [row] = await this.#rows('select * from providers where id = ? and organization_id is null', [id]);
    return row ? toConfig(row) : null;
  }

  async listOwned(organizationId: string): Promise<ProviderConfig[]> {
    return (await this.#rows('select * from providers where organization_id = ? order by channel, priority, name', [organizationId])).map(toConfig);
  }

  async findOwned(organizationId: string, id: string): Promise<ProviderConfig | null> {
    const [row] = await this.#rows('select * from providers where id = ? and organization_id = ?', [id, organizationId]);
    return row ? toConfig(row) : null;
  }

  async upsert(config: PlatformProviderFields, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig> {
    const encrypted = credentials ? this.#cipher.encrypt(JSON.stringify(credentials)) : null;
    const [row] = await this.#rows(
      `insert into providers (id, name, vendor, channel, priority, active, settings, countries, credentials_encrypted, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?)
       on conflict (name) where organization_id is null do update set vendor = excluded.vendor, channel = excluded.channel, priority = excluded.priority,
         active = excluded.active, settings = excluded.settings, countries = excluded.countries,
         credentials_encrypted = coalesce(excluded.credentials_encrypted, providers.credentials_encrypted), updated_at = excluded.updated_at
       returning *`,
      [this.#ids.next(), config.name, config.vendor, config.channel, config.priority, config.active, JSON.stringify(config.settings),
        JSON.stringify(config.countries.map((c) => c.toUpperCase())), encrypted, now, now]);
    return toConfig(row!);
  }

  async listWithCredentials(): Promise<ProviderWithCredentials[]> {
    const rows = await this.#rows('select * from providers order by channel, priority, name');
    return rows.map((row) => this.#withCredentials(row));
  }

  /** The row's decrypted credentials; ones that cannot be decrypted (another ENCRYPTION_KEY) are reported, not thrown: one bad row must not stop every provider. */
  #withCredentials(row: ProviderRow): ProviderWithCredentials {
    if (!row.credentials_encrypted) return { config: toConfig(row), credentials: {} };
    try {
      return { config: toConfig(row), credentials: JSON.parse(this.#cipher.decrypt(row.credentials_encrypted)) as Record<string, string> };
    } catch {
      return { config: toConfig(row), credentials: {}, credentialsError: 'the stored credentials cannot be decrypted with this ENCRYPTION_KEY; set them again' };
    }
  }

  async findWithCredentials(id: string): Promise<ProviderWithCredentials | null> {
    const [row] = await this.#rows('select * from providers where id = ?', [id]);
    return row ? this.#withCredentials(row) : null;
  }

  async create(config: ProviderFields, credentials: Record<string, string> | null, now: Date, em: EntityManager = this.#database.em()): Promise<ProviderConfig> {
    const encrypted = credentials ? this.#cipher.encrypt(JSON.stringify(credentials)) : null;
    const [row] = await translateUniqueViolation('provider name', () => em.execute<ProviderRow[]>(
      `insert into providers (id, name, vendor, channel, priority, active, settings, countries, credentials_encrypted, organization_id, platform_fallback, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?, ?) returning *`,
      [this.#ids.next(), config.name, config.vendor, config.channel, config.priority, config.active, JSON.stringify(config.settings),
        JSON.stringify(config.countries.map((c) => c.toUpperCase())), encrypted, config.organizationId, config.platformFallback, now, now]));
    return toConfig(row!);
  }

  async createOwned(config: ProviderFields & { organizationId: string }, credentials: Record<string, string> | null, now: Date, limit: number): Promise<ProviderConfig | null> {
    return underLimitLock(this.#database.em(), 'vendor-accounts', config.organizationId, async (em) => {
      if (await countOf(em, 'select count(*) as n from providers where organization_id = $1', [config.organizationId]) >= limit) return null;
      return this.create(config, credentials, now, em);
    });
  }

  async update(id: string, changes: Partial<ProviderFields>, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig | null> {
    const [currentRow] = await this.#rows('select * from providers where id = ?', [id]);
    if (!currentRow) return null;
    const current = toConfig(currentRow);
    const next = { ...current, ...changes };
    const encrypted = credentials ? this.#cipher.encrypt(JSON.stringify(credentials)) : null;
    const [row] = await translateUniqueViolation('provider name', () => this.#rows(
      `update providers set name = ?, vendor = ?, channel = ?, priority = ?, active = ?, settings = ?::jsonb, countries = ?::jsonb,
         credentials_encrypted = coalesce(?, credentials_encrypted), platform_fallback = ?, updated_at = ? where id = ? returning *`,
      [next.name, next.vendor, next.channel, next.priority, next.active, JSON.stringify(next.settings), JSON.stringify(next.countries.map((c) => c.toUpperCase())),
        encrypted, next.platformFallback, now, id]));
    return row ? toConfig(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#rows('delete from providers where id = ? returning *', [id])).length === 1;
  }

  async configVersion(): Promise<string> {
    const [row] = await this.#database.em().execute<{ v: string }[]>(
      `select count(*)::text || '/' || coalesce(max(updated_at)::text, '') || '/' || coalesce(sum(hashtext(id || updated_at::text))::text, '') as v from providers`);
    return row?.v ?? '';
  }

  async recordHealth(check: ProviderHealthCheck): Promise<void> {
    await this.#database.em().execute(
      'insert into provider_health_checks (id, provider_id, ok, latency_ms, detail, balance, checked_at) values (?, ?, ?, ?, ?, ?, ?)',
      [check.id, check.providerId, check.ok, check.latencyMs, check.detail.slice(0, 500), check.balance, check.checkedAt]);
  }

  async healthHistory(providerId: string, limit: number): Promise<ProviderHealthCheck[]> {
    const rows = await this.#database.em().execute<HealthRow[]>(
      'select * from provider_health_checks where provider_id = ? order by checked_at desc, id desc limit ?', [providerId, limit]);
    return rows.map(toHealth);
  }

  async latestHealth(): Promise<Map<string, ProviderHealthCheck>> {
    const rows = await this.#database.em().execute<HealthRow[]>(
      'select distinct on (provider_id) * from provider_health_checks order by provider_id, checked_at desc, id desc');
    return new Map(rows.map((r) => [r.provider_id, toHealth(r)]));
  }

  #rows(sql: string, params: unknown[] = []): Promise<ProviderRow[]> {
    return this.#database.em().execute<ProviderRow[]>(sql, params);
  }
}

function toConfig(row: ProviderRow): ProviderConfig {
  return {
    id: row.id, name: row.name, vendor: row.vendor, channel: row.channel as Channel, priority: Number(row.priority), active: row.active,
    settings: json(row.settings), countries: json(row.countries), hasCredentials: row.credentials_encrypted !== null,
    organizationId: row.organization_id ?? null, platformFallback: row.platform_fallback ?? true, ...(row.callback_id ? { callbackId: row.callback_id } : {}),
    createdAt: new Date(row.created_at), updatedAt: new Date(row.updated_at),
  };
}

function toHealth(row: HealthRow): ProviderHealthCheck {
  return {
    id: row.id, providerId: row.provider_id, ok: row.ok, latencyMs: Number(row.latency_ms), detail: row.detail,
    balance: row.balance === null ? null : Number(row.balance), checkedAt: new Date(row.checked_at),
  };
}
