import type { ProviderConfig, ProviderHealthCheck } from '../domain/provider.ts';

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
  recordHealth(check: ProviderHealthCheck): Promise<void>;
  /** Newest first, at most `limit`. */
  healthHistory(providerId: string, limit: number): Promise<ProviderHealthCheck[]>;
  /** The newest check of each provider. */
  latestHealth(): Promise<Map<string, ProviderHealthCheck>>;
}
