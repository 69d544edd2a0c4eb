import type { ProviderConfig, ProviderHealthCheck } from '../domain/provider.ts';

/** What an administrator sets on a provider (everything but identity, timestamps and credentials). */
export type ProviderFields = Omit<ProviderConfig, 'id' | 'createdAt' | 'updatedAt' | 'hasCredentials'>;

/** A provider with its decrypted credentials, for building vendor adapters (never for API output). */
export interface ProviderWithCredentials {
  config: ProviderConfig;
  credentials: Record<string, string>;
}

/** Platform-level provider configuration and health history. Credentials are encrypted at rest. */
export interface ProviderRepository {
  list(): Promise<ProviderConfig[]>;
  findById(id: string): Promise<ProviderConfig | null>;
  /** Inserts or updates by name; credentials replace the stored ones when given. */
  upsert(config: Omit<ProviderConfig, 'id' | 'createdAt' | 'updatedAt' | 'hasCredentials'>, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig>;
  listWithCredentials(): Promise<ProviderWithCredentials[]>;
  /** Inserts a new provider; a name already used is AppError CONFLICT. */
  create(config: ProviderFields, credentials: Record<string, string> | null, now: Date): Promise<ProviderConfig>;
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
