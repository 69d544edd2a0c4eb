import { expect } from 'chai';
import { HmacPasscodes } from '../../../adapters/security/hmac-passcodes.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import { MAX_CHECK_ATTEMPTS, passcodeText } from '../../../core/domain/verification.ts';
import { CheckCounter } from '../../../core/use-cases/verify/check-counter.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { AcceptCoalescer } from '../../../core/use-cases/messaging/accept-coalescer.ts';
import { DEFAULT_FRAUD_LIMITS, type SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { AdvanceVerification } from '../../../core/use-cases/verify/advance-verification.ts';
import { CheckVerification } from '../../../core/use-cases/verify/check-verification.ts';
import { ResendVerification } from '../../../core/use-cases/verify/resend-verification.ts';
import { StartVerification } from '../../../core/use-cases/verify/start-verification.ts';
import { ExpireVerifications } from '../../../core/use-cases/verify/expire-verifications.ts';
import type { VerifyDeps } from '../../../core/use-cases/verify/verify-support.ts';
import { buildCore } from '../../support/build-core.ts';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';

const sealer = new AesGcmCredentialCipher('1'.repeat(64));

async function verifyKit() {
  const core = buildCore();
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert(newOrganization(organizationId, 'Momo Pay', now));
  await core.storage.wallets.create(organizationId, now);
  await core.storage.wallets.update(organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
  const deps: VerifyDeps = {
    storage: core.storage, pricing: core.storage.pricing, clock: core.clock, ids: core.ids, rateLimiter: core.rateLimiter, passcodes: new HmacPasscodes('unit-test-key'), sealer,
    coalescer: new AcceptCoalescer({ storage: core.storage, clock: core.clock, ids: core.ids, fraud: DEFAULT_FRAUD_LIMITS }),
    checkCounter: new CheckCounter({ storage: core.storage, clock: core.clock, maxAttempts: MAX_CHECK_ATTEMPTS }),
  };
  const ctx: SendContext = { organizationId, userId: null, apiKeyId: 'key', isSandbox: false };
  /** The code as delivery reads it: the stored body is masked, the real text sealed. */
  const codeOf = async (messageId: string) => {
    const stored = (await core.storage.messages.findById(organizationId, messageId))!;
    expect(stored.body).to.not.match(/\d{4,10}/);
    const text = (JSON.parse(sealer.decrypt(stored.sealedContent!)) as { body: string }).body;
    const spoken = text.match(/\d/g)!; // a voice text reads the digits one by one, twice
    return /(\d{4,10})/.exec(text)?.[1] ?? spoken.slice(0, spoken.length / 2).join('');
  };
  return { core, deps, ctx, organizationId, codeOf, start: new StartVerification(deps), check: new CheckVerification(deps), resend: new ResendVerification(deps), advance: new AdvanceVerification(deps) };
}

describe('Verify use cases (in memory, fixed clock)', () => {
  it('generates codes of the asked length from digits only, and matches only the right code of the right verification', () => {
    const passcodes = new HmacPasscodes('k');
    for (const length of [4, 6, 10]) expect(passcodes.generate(length)).to.match(new RegExp(`^\\d{${length}}$`));
    const hash = passcodes.hash('v1', '123456');
    expect(passcodes.matches(hash, 'v1', '123456')).to.equal(true);
    expect(passcodes.matches(hash, 'v1', '123457')).to.equal(false);
    expect(passcodes.matches(hash, 'v2', '123456')).to.equal(false);
    expect(new HmacPasscodes('other').matches(hash, 'v1', '123456')).to.equal(false);
  });

  it('reads a voice code digit by digit, twice, and fills a custom template', () => {
    expect(passcodeText('VOICE', '4821', 'en', 10, null)).to.equal('Your verification code is: 4. 8. 2. 1. Again: 4. 8. 2. 1.');
    expect(passcodeText('SMS', '4821', 'en', 10, 'Code {{code}}, valid {{minutes}} min')).to.equal('Code 4821, valid 10 min');
    expect(passcodeText('SMS', '4821', 'fr', 5, null)).to.include('4821').and.include('5 minutes');
  });

  it('sends one code when two resends arrive at once: the other is refused with CONFLICT before any code goes out', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    kit.core.clock.advance(31_000);
    const outcomes = await Promise.all([1, 2].map(() => kit.resend.execute(kit.ctx, verification.id, {}).then((v) => v.sendAttempts, (e: { code: string }) => e.code)));
    expect(outcomes.sort()).to.deep.equal([2, 'CONFLICT']);
    const messages = [...kit.core.storage.state.messages.values()].filter((m) => m.organizationId === kit.organizationId);
    expect(messages).to.have.length(2); // the start's and one resend's
  });

  it('gives the claim back when a resend cannot be sent: the next resend is not held by the cooldown', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    kit.core.clock.advance(31_000);
    await kit.core.storage.wallets.update(kit.organizationId, (w) => ({ amount: -w.balance, kind: 'DEBIT', reference: 'drain', description: 'empty the wallet' }), kit.core.clock.now());
    expect(await kit.resend.execute(kit.ctx, verification.id, {}).then(() => null, (e: { code: string }) => e.code)).to.equal('INSUFFICIENT_BALANCE');
    await kit.core.storage.wallets.update(kit.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'again', description: 'top up' }), kit.core.clock.now());
    expect((await kit.resend.execute(kit.ctx, verification.id, {})).sendAttempts).to.equal(2);
  });

  it('resends a new code after the cooldown (the old one stops working), at most 5 sends', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    const firstCode = await kit.codeOf(verification.sends[0]!.messageId);
    for (let i = 2; i <= 5; i++) {
      kit.core.clock.advance(31_000);
      const resent = await kit.resend.execute(kit.ctx, verification.id, {});
      expect(resent.sendAttempts).to.equal(i);
    }
    kit.core.clock.advance(31_000);
    expect(await kit.resend.execute(kit.ctx, verification.id, {}).then(() => null, (e: { code: string }) => e.code)).to.equal('VERIFY_MAX_SENDS');
    const stored = (await kit.core.storage.verifications.findById(kit.organizationId, verification.id))!;
    const lastCode = await kit.codeOf(stored.sends.at(-1)!.messageId);
    if (lastCode !== firstCode) expect((await kit.check.execute(kit.ctx, { id: verification.id, code: firstCode })).valid).to.equal(false);
    expect((await kit.check.execute(kit.ctx, { id: verification.id, code: lastCode })).valid).to.equal(true);
  });

  it('falls back to the next channel with a new code when the passcode is not delivered in time, and never twice for one send', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567', channels: ['WHATSAPP', 'SMS'], fallbackAfterSeconds: 45 });
    const job = kit.core.storage.state.jobs.find((j) => j.queue === QUEUES.verifyFallback);
    expect(job).to.deep.include({ startAfterSeconds: 45 });
    kit.core.clock.advance(45_000);
    await kit.advance.execute(job!.data as { organizationId: string; verificationId: string; sendAttempts: number });
    await kit.advance.execute(job!.data as { organizationId: string; verificationId: string; sendAttempts: number }); // a repeated job changes nothing
    const stored = (await kit.core.storage.verifications.findById(kit.organizationId, verification.id))!;
    expect(stored.sends.map((s) => s.channel)).to.deep.equal(['WHATSAPP', 'SMS']);
    expect(stored.channelIndex).to.equal(1);
    const smsCode = await kit.codeOf(stored.sends[1]!.messageId);
    expect((await kit.check.execute(kit.ctx, { id: verification.id, code: smsCode })).status).to.equal('APPROVED');
  });

  it('moves to the next channel at once when the first passcode is REJECTED, and fails a single-channel one at once', async () => {
    const kit = await verifyKit();
    const now = kit.core.clock.now();
    await kit.core.storage.suppressions.insert({ id: kit.core.ids.next(), organizationId: kit.organizationId, phone: '+233241234567', email: null, channel: 'SMS', category: null, reason: 'opted out', createdAt: now });
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567', channels: ['SMS', 'VOICE'], fallbackAfterSeconds: 600 });
    expect(verification).to.include({ status: 'PENDING' });
    expect(verification.sends[0]).to.include({ status: 'REJECTED' });
    const jobs = kit.core.storage.jobs.take(QUEUES.verifyFallback);
    expect(jobs.map((j) => j.startAfterSeconds)).to.deep.equal([0]);
    await kit.advance.execute(jobs[0]!.data as { organizationId: string; verificationId: string; sendAttempts: number });
    const moved = (await kit.core.storage.verifications.findById(kit.organizationId, verification.id))!;
    expect(moved.sends.map((s) => s.channel)).to.deep.equal(['SMS', 'VOICE']);
    expect((await kit.check.execute(kit.ctx, { id: verification.id, code: await kit.codeOf(moved.sends[1]!.messageId) })).status).to.equal('APPROVED');

    const { verification: alone } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    expect(alone.status).to.equal('FAILED');
  });

  it('sends one fallback code when the delayed job and the failure\'s job of one send run together', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567', channels: ['WHATSAPP', 'SMS'] });
    const job = { organizationId: kit.organizationId, verificationId: verification.id, sendAttempts: 1 };
    kit.core.clock.advance(60_000);
    await Promise.all([kit.advance.execute(job), kit.advance.execute(job)]);
    const messages = (await kit.core.storage.messages.list(kit.organizationId, {}, 0, 10)).items;
    expect(messages.map((m) => m.channel).sort()).to.deep.equal(['SMS', 'WHATSAPP']);
    expect((await kit.core.storage.verifications.findById(kit.organizationId, verification.id))?.sendAttempts).to.equal(2);
  });

  it('expires: a check after expiresAt answers EXPIRED and announces verification.failed once', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567', expiresInSeconds: 60 });
    const code = await kit.codeOf(verification.sends[0]!.messageId);
    kit.core.clock.advance(60_001);
    expect(await kit.check.execute(kit.ctx, { id: verification.id, code })).to.deep.include({ valid: false, status: 'EXPIRED' });
    expect(await kit.check.execute(kit.ctx, { id: verification.id, code })).to.deep.include({ valid: false, status: 'EXPIRED' });
    const events = await kit.core.storage.outboundEvents.listRecent(kit.organizationId, 10);
    expect(events.filter((e) => e.kind === 'verification.failed')).to.have.length(1);
  });

  it('refuses mixing EMAIL with phone channels and a template without {{code}}', async () => {
    const kit = await verifyKit();
    const mixed = await kit.start.execute(kit.ctx, { to: 'ama@example.com', channels: ['EMAIL', 'SMS'] }).catch((e: { code: string }) => e);
    expect(mixed).to.include({ code: 'VALIDATION_ERROR' });
    const noCode = await kit.start.execute(kit.ctx, { to: '0241234567', template: 'Hello' }).catch((e: { code: string }) => e);
    expect(noCode).to.include({ code: 'VALIDATION_ERROR' });
    const email = await kit.start.execute(kit.ctx, { to: 'Ama@Example.com', channel: 'EMAIL' });
    expect(email.verification).to.include({ to: 'Ama@example.com', country: null, channel: 'EMAIL' });
  });
});

describe('Verify expiry sweep', () => {
  it('expires and announces each unchecked verification once, leaving unexpired ones alone', async () => {
    const kit = await verifyKit();
    const { verification: short } = await kit.start.execute(kit.ctx, { to: '0241234567', expiresInSeconds: 60 });
    const { verification: long } = await kit.start.execute(kit.ctx, { to: '0241234568', expiresInSeconds: 600 });
    const sweep = new ExpireVerifications(kit.deps);
    expect(await sweep.execute()).to.deep.equal({ expired: 0 });
    kit.core.clock.advance(60_000);
    expect(await sweep.execute()).to.deep.equal({ expired: 1 });
    expect(await sweep.execute()).to.deep.equal({ expired: 0 });
    expect((await kit.core.storage.verifications.findById(kit.organizationId, short.id))?.status).to.equal('EXPIRED');
    expect((await kit.core.storage.verifications.findById(kit.organizationId, long.id))?.status).to.equal('PENDING');
    const failed = (await kit.core.storage.outboundEvents.listRecent(kit.organizationId, 10)).filter((e) => e.kind === 'verification.failed');
    expect(failed.map((e) => e.data['id'])).to.deep.equal([short.id]);
  });
});

describe('Verify starts of one recipient in one group commit', () => {
  it('leaves exactly the last one PENDING', async () => {
    const { core, organizationId, start, ctx } = await verifyKit();
    await Promise.all([1, 2, 3].map(() => start.execute(ctx, { to: '0241234567' })));
    const pending = await core.storage.verifications.list(organizationId, 10, 'PENDING');
    expect(pending).to.have.length(1);
  });
});

describe('Verify passcode messages: stored masked, delivered sealed', () => {
  const deliverWith = (kit: Awaited<ReturnType<typeof verifyKit>>, key: AesGcmCredentialCipher) => {
    const sms = new RecordingProvider('SMS', 'unit-sms');
    const deliver = new DeliverMessage({ storage: kit.core.storage, providers: new StaticProviderDirectory([sms], []), sealer: key, clock: kit.core.clock, ids: kit.core.ids, maxAttempts: 3, leaseSeconds: 60 });
    return { sms, deliver };
  };

  it('stores an OTP message with the code masked, hands the provider the real text, and drops the sealed text once sent', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    const id = verification.sends[0]!.messageId;
    const code = await kit.codeOf(id);
    const stored = (await kit.core.storage.messages.findById(kit.organizationId, id))!;
    expect(stored).to.include({ category: 'OTP', body: 'Your verification code is ******. It expires in 10 minutes. Do not share it with anyone.', segments: 1, encoding: 'GSM-7' });
    const { sms, deliver } = deliverWith(kit, sealer);
    expect((await deliver.execute(id))?.status).to.equal('SENT');
    expect(sms.received[0]!.body).to.equal(`Your verification code is ${code}. It expires in 10 minutes. Do not share it with anyone.`);
    expect((await kit.core.storage.messages.findById(kit.organizationId, id))!.sealedContent ?? null).to.equal(null);
  });

  it('fails a passcode whose sealed text cannot be opened with CONTENT_UNREADABLE (nothing sent, refunded), and the verification with it', async () => {
    const kit = await verifyKit();
    const { verification } = await kit.start.execute(kit.ctx, { to: '0241234567' });
    const id = verification.sends[0]!.messageId;
    const { sms, deliver } = deliverWith(kit, new AesGcmCredentialCipher('2'.repeat(64)));
    expect(await deliver.execute(id)).to.include({ status: 'FAILED', errorCode: 'CONTENT_UNREADABLE', cost: 0 });
    expect(sms.received).to.deep.equal([]);
    const job = kit.core.storage.state.jobs.find((j) => j.queue === QUEUES.verifyFallback);
    expect(job, 'the fallback job, at once').to.deep.include({ startAfterSeconds: 0 });
    await kit.advance.execute(job!.data as { organizationId: string; verificationId: string; sendAttempts: number });
    expect((await kit.core.storage.verifications.findById(kit.organizationId, verification.id))?.status).to.equal('FAILED');
    const events = await kit.core.storage.outboundEvents.listRecent(kit.organizationId, 10);
    expect(events.filter((e) => e.kind === 'verification.failed')).to.have.length(1);
  });
});
