import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { PASSWORD_RESET_REQUESTED, RequestPasswordReset } from '../../../core/use-cases/auth/request-password-reset.ts';
import type { EmailSender } from '../../../core/ports/email-sender.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const IP = '203.0.113.7';

async function addUser(core: TestCore, email: string) {
  const user = {
    id: core.ids.next(), email, passwordHash: await core.passwords.hash('old-passphrase-1'), firstName: 'Efua',
    lastName: 'Asante', platformRole: null, createdAt: core.clock.now(),
  };
  await core.storage.users.insert(user);
  return user;
}

function useCase(core: TestCore, overrides: { perEmail?: number; perIp?: number; email?: EmailSender; failures?: unknown[] } = {}) {
  return new RequestPasswordReset({
    ...core, email: overrides.email ?? core.email, publicUrl: 'https://app.nkra.test', tokenTtlMinutes: 30,
    limits: { perEmail: overrides.perEmail ?? 5, perIp: overrides.perIp ?? 100 },
    onSendFailure: (error) => overrides.failures?.push(error),
  });
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

function tokenFrom(text: string): string {
  const match = /https:\/\/app\.nkra\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in: ${text}`);
  return match[1];
}

describe('RequestPasswordReset', () => {
  it('emails a reset link to the account and stores only the SHA-256 of its token, expiring in 30 minutes', async () => {
    const core = buildCore();
    const user = await addUser(core, 'efua@example.com');

    const result = await useCase(core).execute({ email: '  EFUA@example.com ' }, IP);

    expect(result).to.deep.equal({ message: PASSWORD_RESET_REQUESTED });
    expect(core.email.sent).to.have.length(1);
    const sent = core.email.sent[0]!;
    expect(sent.to).to.equal('efua@example.com');
    const token = tokenFrom(sent.text);
    expect(token.length).to.be.at.least(43);
    const stored = [...core.storage.state.passwordResets.values()];
    expect(stored).to.have.length(1);
    expect(stored[0]).to.deep.include({ userId: user.id, tokenHash: core.secrets.sha256(token), usedAt: null });
    expect(stored[0]!.expiresAt.getTime() - core.clock.now().getTime()).to.equal(30 * 60_000);
    expect(JSON.stringify(stored)).to.not.include(token);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const core = buildCore();
    await addUser(core, 'known@example.com');

    const known = await useCase(core).execute({ email: 'known@example.com' }, IP);
    const unknown = await useCase(core).execute({ email: 'nobody@example.com' }, IP);

    expect(unknown).to.deep.equal(known);
    expect(core.email.sent.map((e) => e.to)).to.deep.equal(['known@example.com']);
    expect(core.storage.state.passwordResets.size).to.equal(1);
  });

  it('rejects a missing or blank email with EMAIL_REQUIRED and a malformed one with VALIDATION_ERROR', async () => {
    const core = buildCore();
    const reset = useCase(core);
    expect((await rejection(reset.execute({}, IP))).code).to.equal('EMAIL_REQUIRED');
    expect((await rejection(reset.execute({ email: '   ' }, IP))).code).to.equal('EMAIL_REQUIRED');
    expect((await rejection(reset.execute(undefined, IP))).code).to.equal('EMAIL_REQUIRED');
    const malformed = await rejection(reset.execute({ email: 'not-an-email' }, IP));
    expect(malformed.code).to.equal('VALIDATION_ERROR');
    expect(malformed.details['fieldErrors']).to.have.keys('email');
  });

  it('keeps answering success past the per-email limit but sends no more emails', async () => {
    const core = buildCore();
    await addUser(core, 'target@example.com');
    const reset = useCase(core, { perEmail: 2 });

    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await reset.execute({ email: 'target@example.com' }, `198.51.100.${i}`));

    expect(answers.every((a) => a.message === PASSWORD_RESET_REQUESTED)).to.equal(true);
    expect(core.email.sent).to.have.length(2);
    expect(core.storage.state.passwordResets.size).to.equal(2);
  });

  it('sends again once the per-email window has passed', async () => {
    const core = buildCore();
    await addUser(core, 'later@example.com');
    const reset = useCase(core, { perEmail: 1 });
    await reset.execute({ email: 'later@example.com' }, IP);
    await reset.execute({ email: 'later@example.com' }, IP);
    core.clock.advance(60 * 60_000);
    await reset.execute({ email: 'later@example.com' }, IP);
    expect(core.email.sent).to.have.length(2);
  });

  it('rejects requests past the per-IP limit with RATE_LIMITED and a retry delay', async () => {
    const core = buildCore();
    const reset = useCase(core, { perIp: 3 });
    for (let i = 0; i < 3; i += 1) await reset.execute({ email: `probe-${i}@example.com` }, IP);

    const error = await rejection(reset.execute({ email: 'probe-4@example.com' }, IP));

    expect(error.code).to.equal('RATE_LIMITED');
    expect(error.details['retryAfterSeconds']).to.be.a('number').and.to.be.within(1, 3600);
    await reset.execute({ email: 'probe-5@example.com' }, '198.51.100.99');
  });

  it('still answers success when the email transport fails, and reports the failure', async () => {
    const core = buildCore();
    await addUser(core, 'offline@example.com');
    const failures: unknown[] = [];
    const broken: EmailSender = { send: async () => { throw new AppError('SERVICE_UNAVAILABLE', 'smtp down', {}, { retryable: true }); } };

    const result = await useCase(core, { email: broken, failures }).execute({ email: 'offline@example.com' }, IP);

    expect(result.message).to.equal(PASSWORD_RESET_REQUESTED);
    expect(failures).to.have.length(1);
    expect((failures[0] as AppError).message).to.equal('smtp down');
  });

  it('leaves earlier open tokens of the user valid when a new one is requested', async () => {
    const core = buildCore();
    await addUser(core, 'twice@example.com');
    const reset = useCase(core);
    await reset.execute({ email: 'twice@example.com' }, IP);
    await reset.execute({ email: 'twice@example.com' }, IP);

    const stored = [...core.storage.state.passwordResets.values()];
    expect(stored).to.have.length(2);
    expect(stored.every((r) => r.usedAt === null)).to.equal(true);
    expect(new Set(stored.map((r) => r.tokenHash)).size).to.equal(2);
  });
});
