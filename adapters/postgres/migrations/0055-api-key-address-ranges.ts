import type { Migration } from './migration.ts';

/**
 * API keys (issue 34): the client address ranges a key may be used from (canonical CIDR strings, a
 * JSON array; empty means any address) and the address of its last recorded use, shown next to
 * last_used_at (docs/security.md, "API keys").
 */
export const apiKeyAddressRanges: Migration = {
  id: '0055-api-key-address-ranges',
  statements: [
    `alter table api_keys add column allowed_cidrs jsonb not null default '[]'::jsonb`,
    'alter table api_keys add column last_used_ip text null',
    `alter table api_keys add constraint api_keys_allowed_cidrs_at_most_20 check (jsonb_typeof(allowed_cidrs) = 'array' and jsonb_array_length(allowed_cidrs) <= 20)`,
  ],
};
