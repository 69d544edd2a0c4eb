import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { RequestPasswordReset } from '../../../core/use-cases/auth/request-password-reset.ts';
import { PASSWORD_UPDATED, ResetPassword } from '../../../core/use-cases/auth/reset-password.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const OLD_PASSWORD = 'old-passphrase-1';
const NEW_PASSWORD = 'a-brand-new-passphrase';

async function addUser(core: TestCore, email: string) {
  const user = {
    id: core.ids.next(), email, passwordHash: await core.passwords.hash(OLD_PASSWORD), firstName: 'Yaw',
    lastName: 'Darko', platformRole: null, createdAt: core.clock.now(),
  };
  await core.storage.users.insert(user);
  return user;
}

/** Requests a reset through the real use case and returns the token read from the email. */
async function requestToken(core: TestCore, email: string): Promise<string> {
  await new RequestPasswordReset({
    ...core, publicUrl: 'https://app.nkra.test', tokenTtlMinutes: 30, limits: { perEmail: 100, perIp: 100 },
  }).execute({ email }, '203.0.113.7');
  const link = /token=([A-Za-z0-9_-]+)/.exec(core.email.lastTo(email)?.text ?? '');
  if (!link?.[1]) throw new Error('no reset email');
  return link[1];
}

function useCase(core: TestCore) {
  return new ResetPassword(core);
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

async function passwordOf(core: TestCore, userId: string): Promise<string | undefined> {
  return (await core.storage.users.findById(userId))?.passwordHash;
}

describe('ResetPassword', () => {
  it('sets the new password and marks the token used', async () => {
    const core = buildCore();
    const user = await addUser(core, 'yaw@example.com');
    const token = await requestToken(core, 'yaw@example.com');

    const result = await useCase(core).execute({ token, password: NEW_PASSWORD });

    expect(result).to.deep.equal({ message: PASSWORD_UPDATED });
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, NEW_PASSWORD)).to.equal(true);
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, OLD_PASSWORD)).to.equal(false);
    const [reset] = [...core.storage.state.passwordResets.values()];
    expect(reset?.usedAt).to.deep.equal(core.clock.now());
  });

  it('accepts a token only once: the second use is INVALID_RESET_TOKEN', async () => {
    const core = buildCore();
    const user = await addUser(core, 'once@example.com');
    const token = await requestToken(core, 'once@example.com');
    await useCase(core).execute({ token, password: NEW_PASSWORD });

    const error = await rejection(useCase(core).execute({ token, password: 'yet-another-passphrase' }));

    expect(error.code).to.equal('INVALID_RESET_TOKEN');
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, NEW_PASSWORD)).to.equal(true);
  });

  it('lets exactly one of two concurrent resets with the same token succeed', async () => {
    const core = buildCore();
    const user = await addUser(core, 'race@example.com');
    const token = await requestToken(core, 'race@example.com');

    const outcomes = await Promise.allSettled([
      useCase(core).execute({ token, password: 'first-racing-passphrase' }),
      useCase(core).execute({ token, password: 'second-racing-passphrase' }),
    ]);

    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).to.have.length(1);
    expect(lost).to.have.length(1);
    expect((lost[0]!.reason as AppError).code).to.equal('INVALID_RESET_TOKEN');
    const winner = outcomes[0]!.status === 'fulfilled' ? 'first-racing-passphrase' : 'second-racing-passphrase';
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, winner)).to.equal(true);
  });

  it('rejects an expired token with INVALID_RESET_TOKEN and keeps the old password', async () => {
    const core = buildCore();
    const user = await addUser(core, 'late@example.com');
    const token = await requestToken(core, 'late@example.com');
    core.clock.advance(30 * 60_000);

    const error = await rejection(useCase(core).execute({ token, password: NEW_PASSWORD }));

    expect(error.code).to.equal('INVALID_RESET_TOKEN');
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, OLD_PASSWORD)).to.equal(true);
  });

  it('accepts a token just before it expires', async () => {
    const core = buildCore();
    await addUser(core, 'just@example.com');
    const token = await requestToken(core, 'just@example.com');
    core.clock.advance(30 * 60_000 - 1_000);
    expect((await useCase(core).execute({ token, password: NEW_PASSWORD })).message).to.equal(PASSWORD_UPDATED);
  });

  it('rejects an unknown token with INVALID_RESET_TOKEN', async () => {
    const core = buildCore();
    const error = await rejection(useCase(core).execute({ token: core.secrets.randomToken(32), password: NEW_PASSWORD }));
    expect(error.code).to.equal('INVALID_RESET_TOKEN');
  });

  it('invalidates the user\'s other open tokens once one is used', async () => {
    const core = buildCore();
    await addUser(core, 'many@example.com');
    const first = await requestToken(core, 'many@example.com');
    const second = await requestToken(core, 'many@example.com');
    await useCase(core).execute({ token: second, password: NEW_PASSWORD });

    const error = await rejection(useCase(core).execute({ token: first, password: 'yet-another-passphrase' }));

    expect(error.code).to.equal('INVALID_RESET_TOKEN');
    expect([...core.storage.state.passwordResets.values()].every((r) => r.usedAt !== null)).to.equal(true);
  });

  it('does not touch other users\' tokens', async () => {
    const core = buildCore();
    await addUser(core, 'one@example.com');
    await addUser(core, 'two@example.com');
    const mine = await requestToken(core, 'one@example.com');
    const theirs = await requestToken(core, 'two@example.com');
    await useCase(core).execute({ token: mine, password: NEW_PASSWORD });
    expect((await useCase(core).execute({ token: theirs, password: NEW_PASSWORD })).message).to.equal(PASSWORD_UPDATED);
  });

  it('rejects a password under 8 characters with VALIDATION_ERROR', async () => {
    const core = buildCore();
    const error = await rejection(useCase(core).execute({ token: 'whatever', password: 'short' }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.keys('password');
  });

  it('rejects a missing token with VALIDATION_ERROR', async () => {
    const core = buildCore();
    const error = await rejection(useCase(core).execute({ password: NEW_PASSWORD }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.keys('token');
  });

  it('rejects a common or too simple password with WEAK_PASSWORD without burning the token', async () => {
    const core = buildCore();
    const user = await addUser(core, 'weak@example.com');
    const token = await requestToken(core, 'weak@example.com');

    const common = await rejection(useCase(core).execute({ token, password: 'Password123' }));
    const simple = await rejection(useCase(core).execute({ token, password: 'abababababab' }));

    expect(common.code).to.equal('WEAK_PASSWORD');
    expect(simple.code).to.equal('WEAK_PASSWORD');
    expect(await core.passwords.verify((await passwordOf(core, user.id))!, OLD_PASSWORD)).to.equal(true);
    expect((await useCase(core).execute({ token, password: NEW_PASSWORD })).message).to.equal(PASSWORD_UPDATED);
  });
});
