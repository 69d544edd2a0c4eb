import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { Argon2PasswordHasher } from '../../adapters/security/argon2-password-hasher.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { CreatePlatformAdmin } from '../../core/use-cases/admin/create-platform-admin.ts';
import type { Config } from '../config.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { Logger } from '../logger.ts';

export function createPlatformAdminUseCase(infra: Infrastructure): CreatePlatformAdmin {
  const ids = new UuidV7IdGenerator();
  return new CreatePlatformAdmin({
    storage: new MikroOrmStorage(infra.database, ids, infra.boss), passwords: new Argon2PasswordHasher(), ids, clock: new SystemClock(),
  });
}

/** With ADMIN_EMAIL (and ADMIN_PASSWORD for a new account) set, ensures that administrator exists at start. */
export async function bootstrapPlatformAdmin(config: Config, infra: Infrastructure, logger: Logger): Promise<void> {
  if (!config.adminEmail) return;
  const result = await createPlatformAdminUseCase(infra).execute({ email: config.adminEmail, password: config.adminPassword });
  logger.info({ email: config.adminEmail, created: result.created }, 'platform administrator ensured');
}
