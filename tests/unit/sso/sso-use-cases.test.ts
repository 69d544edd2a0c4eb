import dgram from 'node:dgram';
import { expect } from 'chai';
import { InMemoryTxtResolver } from '../../../adapters/memory/in-memory-txt-resolver.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { NodeDnsTxtResolver } from '../../../adapters/sso/node-dns-txt-resolver.ts';
import { AppError } from '../../../core/errors.ts';
import { MAX_SSO_DOMAINS, normalizeDomain, verificationRecordValue } from '../../../core/domain/sso.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { OpenIdProvider } from '../../../core/ports/openid-provider.ts';
import { AddSsoDomain } from '../../../core/use-cases/sso/add-sso-domain.ts';
import { StartSsoLogin } from '../../../core/use-cases/sso/start-sso-login.ts';
import { openLoginState } from '../../../core/use-cases/sso/sso-support.ts';
import { VerifySsoDomain } from '../../../core/use-cases/sso/verify-sso-domain.ts';
import { buildCore } from '../../support/build-core.ts';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try { await promise; } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected an AppError');
}

/** Single sign-on use cases on memory adapters (the full flow against a real provider: tests/http/sso.test.ts). */
describe('single sign-on use cases', () => {
  const cipher = new AesGcmCredentialCipher('1'.repeat(64));

  it('normalizes claimed domains and refuses what is not a domain name', () => {
    expect(normalizeDomain(' Example.COM. ')).to.equal('example.com');
    for (const bad of ['localhost', 'a..b', '-a.com', 'a.123', 'exa mple.com', `${'a'.repeat(64)}.com`]) expect(normalizeDomain(bad)).to.equal(null);
  });

  it('answers DOMAIN_NOT_VERIFIED, saying so, when DNS does not answer in time, then verifies once the record is found', async () => {
    const core = buildCore();
    const org = newOrganization('org-1', 'Kente', core.clock.now());
    await core.storage.organizations.insert(org);
    const claim = await new AddSsoDomain(core).execute(org.id, { domain: 'kente.test' });
    const dns = new InMemoryTxtResolver();
    dns.unavailable = true;
    const verify = new VerifySsoDomain({ ...core, dns });
    const error = await failure(verify.execute(org.id, claim.id));
    expect(error.code).to.equal('DOMAIN_NOT_VERIFIED');
    expect(error.details['reason']).to.equal('the DNS lookup did not answer in time; try again');
    dns.unavailable = false;
    dns.set(claim.txtRecord.name, [claim.txtRecord.value]);
    expect((await verify.execute(org.id, claim.id)).verified).to.equal(true);
    expect(claim.txtRecord.value).to.match(/^nkra-verification=[A-Za-z0-9_-]{32}$/).and.equal(verificationRecordValue(claim.txtRecord.value.slice(18)));
  });

  it('refuses a domain beyond MAX_SSO_DOMAINS with LIMIT_REACHED', async () => {
    const core = buildCore();
    const add = new AddSsoDomain(core);
    for (let i = 0; i < MAX_SSO_DOMAINS; i++) await add.execute('org-1', { domain: `d${i}.test` });
    expect((await failure(add.execute('org-1', { domain: 'one-more.test' }))).code).to.equal('LIMIT_REACHED');
  });

  it('seals the sign-in state it starts with, and limits starts per client address (RATE_LIMITED)', async () => {
    const core = buildCore();
    await core.storage.sso.addDomain({ id: 'd1', organizationId: 'org-1', domain: 'kente.test', token: 't', verifiedAt: core.clock.now(), createdAt: core.clock.now() });
    await core.storage.sso.saveConnection({
      organizationId: 'org-1', issuerUrl: 'https://idp.kente.test', clientId: 'c', clientSecretCiphertext: cipher.encrypt('s'), slug: null,
      scopes: ['openid', 'email'], defaultRole: 'VIEWER', ssoOnly: false, createdAt: core.clock.now(), updatedAt: core.clock.now(),
    });
    const seen: string[] = [];
    const provider: OpenIdProvider = {
      authorizationUrl: async (settings, checks) => { seen.push(settings.clientSecret, checks.redirectUri); return `https://idp.kente.test/auth?state=${checks.state}`; },
      completeLogin: async () => { throw new Error('not used'); },
    };
    const start = new StartSsoLogin({ ...core, provider, cipher, publicUrl: 'https://nkra.example/', perIpLimit: 2 });
    const started = await start.execute({ email: 'Ama@Kente.test' }, '203.0.113.9');
    const state = openLoginState(cipher, started.sealedState, core.clock.now());
    expect(state.organizationId).to.equal('org-1');
    expect(started.authorizationUrl).to.equal(`https://idp.kente.test/auth?state=${state.state}`);
    expect(seen).to.deep.equal(['s', 'https://nkra.example/sso/callback']);
    expect((await failure(Promise.resolve().then(() => openLoginState(cipher, started.sealedState, new Date(core.clock.now().getTime() + 601_000))))).details['reason']).to.equal('sign-in expired');
    await start.execute({ email: 'kofi@kente.test' }, '203.0.113.9');
    expect((await failure(start.execute({ email: 'yaw@kente.test' }, '203.0.113.9'))).code).to.equal('RATE_LIMITED');
  });

  it('bounds a TXT lookup to a resolver that never answers by its timeout (null, not a hang)', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const resolver = new NodeDnsTxtResolver({ servers: [`127.0.0.1:${silent.address().port}`], timeoutMs: 400 });
      const began = Date.now();
      expect(await resolver.resolveTxt('_nkra-verification.kente.test')).to.equal(null);
      expect(Date.now() - began).to.be.below(2_000);
    } finally {
      silent.close();
    }
  });
});
