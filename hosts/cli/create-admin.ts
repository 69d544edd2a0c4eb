import { parseArgs } from 'node:util';
import { isAppError } from '../../core/errors.ts';
import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { failStartup } from '../lifecycle.ts';
import { createLogger } from '../logger.ts';
import { createPlatformAdminUseCase } from './bootstrap-admin.ts';

/**
 * `npm run admin:create -- --email ops@example.com [--password ...] [--first-name A --last-name B]`
 * Creates a PLATFORM_SUPER_ADMIN, or promotes an existing account. The password may also come from
 * NKRA_ADMIN_PASSWORD so it stays out of shell history.
 */
try {
  const { values } = parseArgs({ options: {
    email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' },
  } });
  if (!values.email) throw new Error('usage: npm run admin:create -- --email <email> [--password <password>]');
  const config = await loadConfig();
  const logger = createLogger('warn');
  const infra = await openInfrastructure(config, logger, { superviseQueue: false });
  try {
    const result = await createPlatformAdminUseCase(infra).execute({
      email: values.email, password: values.password ?? process.env['NKRA_ADMIN_PASSWORD'],
      ...(values['first-name'] ? { firstName: values['first-name'] } : {}), ...(values['last-name'] ? { lastName: values['last-name'] } : {}),
    });
    process.stdout.write(`${result.created ? 'created' : 'promoted'} platform administrator ${values.email} (${result.userId})\n`);
  } catch (error) {
    if (isAppError(error)) throw new Error(`${error.code}: ${error.message}`);
    throw error;
  } finally {
    await infra.close();
  }
} catch (error) {
  failStartup(error);
}
