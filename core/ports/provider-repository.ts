import type { ProviderConfig, ProviderHealthCheck } from '../domain/provider.ts';

/** What an administrator sets on a provider (everything but identity, timestamps and credentials). */
export type ProviderFields = Omit<ProviderConfig, 'id' | 'createdAt' | 'updatedAt' | 'hasCredentials'>;
/** What PROVIDERS_FILE declares: a platform provider, by name. */
export type PlatformProviderFields = Omit<ProviderFields, 'organizationId' | 'platformFallback'>;

/** A provider with its decrypted credentials, for building vendor adapters (never for API output). */
export interface ProviderWithCredentials {
  config: ProviderConfig;
  credentials: Record<string, string>;
  /** Set when the stored credentials cannot be read (encrypted under another key): the provider is not loaded. */
  credentialsError?: string;
}

/**
 * Provider configuration and health history: the platform's providers and organizations' own vendor
 * accounts (`organizationId`). Credentials are encrypted at rest.
 */
export interface ProviderRepository {
  /** The platform's providers (never an organization's own account). */
  list(): Promise<ProviderConfig[]>;
  /** One of the platform's providers; null for an organization's own account. */
  findById(id: string): Promise<ProviderConfig | null>;
  /** One organization's own vendor accounts. */
  listOwned(organizationId: string): Promise<ProviderConfig[]>;
  /** One of the organization's own accounts; null when unknown or another owner's. */
  findOwned(organizationId: string, id: string): Promise<ProviderConfig | null>;
  /** Inserts or updates a platform provider by name; credentials replace the stored ones when given. */
  upsert(config: PlatformProviderFields, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig>;
  /** Every active and inactive provider, platform and owned, for building adapters in a process. */
  listWithCredentials(): Promise<ProviderWithCredentials[]>;
  /** One provider (any owner: callers check it) with its decrypted credentials. */
  findWithCredentials(id: string): Promise<ProviderWithCredentials | null>;
  /** Inserts a new provider; a name its owner already uses is AppError CONFLICT. */
  create(config: ProviderFields, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig>;
  /**
   * `create` for an organization's own account, unless that organization holds `limit` accounts
   * already: null then, nothing written. Counted one request at a time per organization (a lock held
   * to the end of the transaction), so concurrent requests in any number of processes never pass it.
   */
  createOwned(config: ProviderFields & { organizationId: string }, credentials: Record<string, string> | null, now: Date, limit: number): Promise<ProviderConfig | null>;
  /**
   * Changes the given fields of one provider; `credentials` replace the stored ones when given (the
   * old ones are gone: rotation). Null when it does not exist.
   */
  update(id: string, changes: Partial<ProviderFields>, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig | null>;
  /** Deletes one provider and its health history; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /**
   * A value that changes whenever any provider is created, changed or deleted: processes poll it to
   * rebuild their providers within seconds of a change made elsewhere.
   */
  configVersion(): Promise<string>;
  recordHealth(check: ProviderHealthCheck): Promise<void>;
  /** Newest first, at most `limit`. */
  healthHistory(providerId: string, limit: number): Promise<ProviderHealthCheck[]>;
  /** The newest check of each provider. */
  latestHealth(): Promise<Map<string, ProviderHealthCheck>>;
}
