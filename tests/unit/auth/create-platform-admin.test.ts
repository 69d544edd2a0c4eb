import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { CreatePlatformAdmin } from '../../../core/use-cases/admin/create-platform-admin.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

function useCase(core: TestCore) {
  return new CreatePlatformAdmin(core);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('CreatePlatformAdmin', () => {
  it('creates a PLATFORM_SUPER_ADMIN account with a hashed password and default names', async () => {
    const core = buildCore();

    const result = await useCase(core).execute({ email: 'Ops@Example.com', password: 'a-strong-admin-passphrase' });

    expect(result.created).to.equal(true);
    const user = await core.storage.users.findById(result.userId);
    expect(user).to.deep.include({ email: 'ops@example.com', platformRole: 'PLATFORM_SUPER_ADMIN', firstName: 'Platform', lastName: 'Administrator' });
    expect(user!.passwordHash).to.not.equal('a-strong-admin-passphrase');
    expect(await core.passwords.verify(user!.passwordHash, 'a-strong-admin-passphrase')).to.equal(true);
  });

  it('promotes an existing account without changing its password, and says so', async () => {
    const core = buildCore();
    const id = core.ids.next();
    await core.storage.users.insert({
      id, email: 'member@example.com', passwordHash: await core.passwords.hash('members-own-passphrase'), firstName: 'Akosua',
      lastName: 'Mensah', platformRole: null, createdAt: core.clock.now(),
    });

    const result = await useCase(core).execute({ email: 'member@example.com', password: 'ignored-other-passphrase' });

    expect(result).to.deep.equal({ userId: id, created: false });
    const user = await core.storage.users.findById(id);
    expect(user?.platformRole).to.equal('PLATFORM_SUPER_ADMIN');
    expect(await core.passwords.verify(user!.passwordHash, 'members-own-passphrase')).to.equal(true);
  });

  it('is idempotent: running it twice leaves one administrator account', async () => {
    const core = buildCore();
    const first = await useCase(core).execute({ email: 'twice@example.com', password: 'a-strong-admin-passphrase' });
    const second = await useCase(core).execute({ email: 'twice@example.com', password: 'a-strong-admin-passphrase' });
    expect(second).to.deep.equal({ userId: first.userId, created: false });
    expect(core.storage.state.users.size).to.equal(1);
  });

  it('requires a password to create a new account', async () => {
    const core = buildCore();
    const error = await rejection(useCase(core).execute({ email: 'nopass@example.com' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.keys('password');
    expect(core.storage.state.users.size).to.equal(0);
  });

  it('refuses a weak password and a malformed email with VALIDATION_ERROR', async () => {
    const core = buildCore();
    const weak = await rejection(useCase(core).execute({ email: 'weak@example.com', password: 'password123' }));
    const short = await rejection(useCase(core).execute({ email: 'short@example.com', password: 'short' }));
    const badEmail = await rejection(useCase(core).execute({ email: 'not-an-email', password: 'a-strong-admin-passphrase' }));
    expect([weak.code, short.code, badEmail.code]).to.deep.equal(['VALIDATION_ERROR', 'VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(badEmail.details['fieldErrors']).to.have.keys('email');
    expect(core.storage.state.users.size).to.equal(0);
  });
});
