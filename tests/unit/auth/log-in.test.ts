import { expect } from 'chai';
import { AppError } from '../../../core/errors.ts';
import { LogIn } from '../../../core/use-cases/auth/log-in.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

const PASSWORD = 'the-owner-passphrase';
const OWNER_IP = '198.51.100.10';
const ATTACKER_IP = '203.0.113.66';

async function addUser(core: TestCore, email: string) {
  await core.storage.users.insert({
    id: core.ids.next(), email, passwordHash: await core.passwords.hash(PASSWORD), firstName: 'Efua', lastName: 'Asante', platformRole: null, createdAt: core.clock.now(),
  });
}

async function outcome(promise: Promise<unknown>): Promise<string> {
  try { await promise; return 'OK'; } catch (error) { if (error instanceof AppError) return error.code; throw error; }
}

describe('LogIn: brute force kept out without locking the owner out', () => {
  let core: TestCore;
  let logIn: LogIn;
  beforeEach(() => {
    core = buildCore();
    logIn = new LogIn({ ...core, sessionTtlSeconds: 3600, limits: { perEmail: 10, perIp: 100 } });
  });

  it('lets the owner in from a known address or device while a distributed guess refuses fresh addresses (issue 28 item 5)', async () => {
    await addUser(core, 'owner@example.com');
    const first = await logIn.execute({ email: 'owner@example.com', password: PASSWORD }, '2001:db8:1:2::10');
    for (let i = 0; i < 100; i += 1) await logIn.execute({ email: 'owner@example.com', password: `guess-${i}` }, `192.0.2.${i}`).catch(() => undefined);
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD }, '192.0.2.200'))).to.equal('RATE_LIMITED');
    // The same /64 is the same known client; the device token works from anywhere.
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD }, '2001:db8:1:2::99'))).to.equal('OK');
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD, deviceToken: first.deviceToken }, '192.0.2.201'))).to.equal('OK');
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD, deviceToken: 'x'.repeat(43) }, '192.0.2.202'))).to.equal('RATE_LIMITED');
  });

  it('stops an attacker after 10 wrong passwords (RATE_LIMITED even with the right one) while the owner signs in from their own network', async () => {
    await addUser(core, 'owner@example.com');
    for (let i = 0; i < 10; i += 1) expect(await outcome(logIn.execute({ email: 'owner@example.com', password: `guess-${i}` }, ATTACKER_IP))).to.equal('INVALID_CREDENTIALS');
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD }, ATTACKER_IP))).to.equal('RATE_LIMITED');
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD }, OWNER_IP))).to.equal('OK');
    expect(await outcome(logIn.execute({ email: 'owner@example.com', password: PASSWORD }, OWNER_IP))).to.equal('OK');
  });

  it('never counts successful logins: 300 colleagues behind one office address all sign in', async () => {
    for (let i = 0; i < 30; i += 1) await addUser(core, `staff-${i}@example.com`);
    const results = [];
    for (let round = 0; round < 10; round += 1) {
      for (let i = 0; i < 30; i += 1) results.push(await outcome(logIn.execute({ email: `staff-${i}@example.com`, password: PASSWORD }, OWNER_IP)));
    }
    expect(results.filter((r) => r !== 'OK')).to.deep.equal([]);
  });

  it('stops credential stuffing from one address after 100 failures across accounts', async () => {
    for (let i = 0; i < 100; i += 1) await logIn.execute({ email: `victim-${i}@example.com`, password: 'leaked' }, ATTACKER_IP).catch(() => undefined);
    await addUser(core, 'another@example.com');
    expect(await outcome(logIn.execute({ email: 'another@example.com', password: PASSWORD }, ATTACKER_IP))).to.equal('RATE_LIMITED');
    expect(await outcome(logIn.execute({ email: 'another@example.com', password: PASSWORD }, OWNER_IP))).to.equal('OK');
  });

  it('slows a guess spread over many addresses: 100 failures on one account from 100 addresses refuse a new address too', async () => {
    await addUser(core, 'target@example.com');
    for (let i = 0; i < 100; i += 1) await logIn.execute({ email: 'target@example.com', password: `guess-${i}` }, `192.0.2.${i}`).catch(() => undefined);
    expect(await outcome(logIn.execute({ email: 'target@example.com', password: PASSWORD }, '192.0.2.200'))).to.equal('RATE_LIMITED');
    core.clock.advance(15 * 60 * 1000);
    expect(await outcome(logIn.execute({ email: 'target@example.com', password: PASSWORD }, '192.0.2.200'))).to.equal('OK');
  });
});
