import type { EntityManager } from '@mikro-orm/sql';
import type { ChallengeKind, Passkey, SignInChallenge, TotpFactor } from '../../core/domain/two-factor.ts';
import { MAX_PASSKEYS_PER_USER, type SecondFactorRepository } from '../../core/ports/second-factor-repository.ts';
import type { SignInChallengeRepository } from '../../core/ports/sign-in-challenge-repository.ts';
import type { TwoFactorPolicyRepository } from '../../core/ports/two-factor-policy-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows } from './sql-rows.ts';

/** Tables of migration 0056: two_factor_totp, two_factor_recovery_codes, two_factor_passkeys. */
export class SqlSecondFactorRepository implements SecondFactorRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async findTotp(userId: string): Promise<TotpFactor | null> {
    const [row] = await sqlRows<{ sealed_secret: string; confirmed_at: Date | null; last_used_step: string | null; created_at: Date }>(this.#em,
      'select sealed_secret, confirmed_at, last_used_step, created_at from two_factor_totp where user_id = $1', [userId]);
    return row ? {
      userId, sealedSecret: row.sealed_secret, confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
      lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step), createdAt: new Date(row.created_at),
    } : null;
  }

  async savePendingTotp(userId: string, sealedSecret: string, at: Date): Promise<void> {
    await sqlRows(this.#em, `insert into two_factor_totp (user_id, sealed_secret, confirmed_at, last_used_step, created_at) values ($1, $2, null, null, $3)
      on conflict (user_id) do update set sealed_secret = excluded.sealed_secret, confirmed_at = null, last_used_step = null, created_at = excluded.created_at`,
    [userId, sealedSecret, at]);
  }

  async confirmTotp(userId: string, step: number, at: Date): Promise<boolean> {
    const rows = await sqlRows(this.#em, 'update two_factor_totp set confirmed_at = $2, last_used_step = $3 where user_id = $1 and confirmed_at is null returning user_id', [userId, at, step]);
    return rows.length === 1;
  }

  async useTotpStep(userId: string, step: number): Promise<boolean> {
    // One statement: of two requests with one code, the row lock lets one win and the other see the new step.
    const rows = await sqlRows(this.#em, `update two_factor_totp set last_used_step = $2
      where user_id = $1 and confirmed_at is not null and (last_used_step is null or last_used_step < $2) returning user_id`, [userId, step]);
    return rows.length === 1;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: readonly string[], at: Date): Promise<void> {
    await sqlRows(this.#em, 'delete from two_factor_recovery_codes where user_id = $1', [userId]);
    if (codeHashes.length === 0) return;
    await sqlRows(this.#em, `insert into two_factor_recovery_codes (user_id, code_hash, used_at, created_at)
      select $1, h, null, $3 from unnest($2::text[]) as h on conflict do nothing`, [userId, [...codeHashes], at]);
  }

  async useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const rows = await sqlRows(this.#em, 'update two_factor_recovery_codes set used_at = $3 where user_id = $1 and code_hash = $2 and used_at is null returning code_hash', [userId, codeHash, at]);
    return rows.length === 1;
  }

  async countUnusedRecoveryCodes(userId: string): Promise<number> {
    const [row] = await sqlRows<{ n: string }>(this.#em, 'select count(*) as n from two_factor_recovery_codes where user_id = $1 and used_at is null', [userId]);
    return Number(row?.n ?? 0);
  }

  async addPasskey(p: Passkey): Promise<void> {
    await translateUniqueViolation('passkey', () => sqlRows(this.#em, `insert into two_factor_passkeys (credential_id, user_id, name, public_key, counter, transports, created_at, last_used_at)
      values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`, [p.id, p.userId, p.name, p.publicKey, p.counter, JSON.stringify(p.transports), p.createdAt, p.lastUsedAt]));
  }

  async listPasskeys(userId: string): Promise<Passkey[]> {
    const rows = await sqlRows<PasskeyRow>(this.#em, `select * from two_factor_passkeys where user_id = $1 order by created_at, credential_id limit ${MAX_PASSKEYS_PER_USER}`, [userId]);
    return rows.map(toPasskey);
  }

  async findPasskey(userId: string, credentialId: string): Promise<Passkey | null> {
    const [row] = await sqlRows<PasskeyRow>(this.#em, 'select * from two_factor_passkeys where user_id = $1 and credential_id = $2', [userId, credentialId]);
    return row ? toPasskey(row) : null;
  }

  async recordPasskeyUse(userId: string, credentialId: string, counter: number, at: Date): Promise<void> {
    await sqlRows(this.#em, 'update two_factor_passkeys set counter = $3, last_used_at = $4 where user_id = $1 and credential_id = $2', [userId, credentialId, counter, at]);
  }

  async deletePasskey(userId: string, credentialId: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'delete from two_factor_passkeys where user_id = $1 and credential_id = $2 returning credential_id', [userId, credentialId])).length === 1;
  }

  async deleteAll(userId: string): Promise<void> {
    await sqlRows(this.#em, 'delete from two_factor_totp where user_id = $1', [userId]);
    await sqlRows(this.#em, 'delete from two_factor_recovery_codes where user_id = $1', [userId]);
    await sqlRows(this.#em, 'delete from two_factor_passkeys where user_id = $1', [userId]);
  }
}

interface PasskeyRow { credential_id: string; user_id: string; name: string; public_key: string; counter: string | number; transports: string[] | string; created_at: Date; last_used_at: Date | null }

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.credential_id, userId: row.user_id, name: row.name, publicKey: row.public_key, counter: Number(row.counter),
    transports: typeof row.transports === 'string' ? JSON.parse(row.transports) as string[] : row.transports,
    createdAt: new Date(row.created_at), lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
  };
}

/** sign_in_challenges (migration 0056). */
export class SqlSignInChallengeRepository implements SignInChallengeRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async save(c: SignInChallenge): Promise<void> {
    await sqlRows(this.#em, 'delete from sign_in_challenges where user_id = $1 and expires_at < $2', [c.userId, c.createdAt]);
    await sqlRows(this.#em, `insert into sign_in_challenges (id, user_id, kind, webauthn_challenge, expires_at, created_at) values ($1, $2, $3, $4, $5, $6)
      on conflict (id) do update set user_id = excluded.user_id, kind = excluded.kind, webauthn_challenge = excluded.webauthn_challenge,
        expires_at = excluded.expires_at, created_at = excluded.created_at`, [c.id, c.userId, c.kind, c.webauthnChallenge, c.expiresAt, c.createdAt]);
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const [row] = await sqlRows<{ id: string; user_id: string; kind: ChallengeKind; webauthn_challenge: string | null; expires_at: Date; created_at: Date }>(this.#em,
      'select * from sign_in_challenges where id = $1', [id]);
    return row ? {
      id: row.id, userId: row.user_id, kind: row.kind, webauthnChallenge: row.webauthn_challenge, expiresAt: new Date(row.expires_at), createdAt: new Date(row.created_at),
    } : null;
  }

  async setWebauthnChallenge(id: string, webauthnChallenge: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'update sign_in_challenges set webauthn_challenge = $2 where id = $1 returning id', [id, webauthnChallenge])).length === 1;
  }

  async consume(id: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'delete from sign_in_challenges where id = $1 returning id', [id])).length === 1;
  }
}

/** organization_two_factor_policies (migration 0056): a row means the organization requires two-factor. */
export class SqlTwoFactorPolicyRepository implements TwoFactorPolicyRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async setRequired(organizationId: string, required: boolean, at: Date): Promise<void> {
    if (required) await sqlRows(this.#em, 'insert into organization_two_factor_policies (organization_id, required_since) values ($1, $2) on conflict do nothing', [organizationId, at]);
    else await sqlRows(this.#em, 'delete from organization_two_factor_policies where organization_id = $1', [organizationId]);
  }

  async isRequired(organizationId: string): Promise<boolean> {
    return (await sqlRows(this.#em, 'select 1 from organization_two_factor_policies where organization_id = $1', [organizationId])).length === 1;
  }

  async requiredForUser(userId: string): Promise<boolean> {
    const rows = await sqlRows(this.#em, `select 1 from memberships m join organization_two_factor_policies p on p.organization_id = m.organization_id
      where m.user_id = $1 limit 1`, [userId]);
    return rows.length === 1;
  }
}
