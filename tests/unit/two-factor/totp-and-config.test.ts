import { expect } from 'chai';
import { generate } from 'otplib';
import { OtplibTotpAuthenticator } from '../../../adapters/security/otplib-totp-authenticator.ts';
import { formatRecoveryCode, normalizeRecoveryCode, normalizeTotpCode } from '../../../core/domain/two-factor.ts';
import { ConfigError, loadConfig } from '../../../hosts/config.ts';
import { twoFactorConfig } from '../../../hosts/two-factor-config.ts';

/** RFC 6238 appendix B: the SHA-1 seed "12345678901234567890" in Base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('Two-factor: TOTP adapter, recovery codes and settings', () => {
  const totp = new OtplibTotpAuthenticator();

  it('accepts the RFC 6238 test vectors (6-digit tail) at their times, and answers the time step', async () => {
    // T = 59 s -> 94287082; T = 1111111109 -> 07081804; T = 1234567890 -> 89005924 (SHA-1).
    expect(await totp.verify(RFC_SECRET, '287082', new Date(59_000), null)).to.equal(1);
    expect(await totp.verify(RFC_SECRET, '081804', new Date(1_111_111_109_000), null)).to.equal(37_037_036);
    expect(await totp.verify(RFC_SECRET, '005924', new Date(1_234_567_890_000), null)).to.equal(41_152_263);
  });

  it('accepts one step of drift either side, refuses two, refuses steps at or before the last used one, and never throws', async () => {
    const secret = totp.newSecret();
    const now = new Date('2026-11-28T08:00:10Z');
    const at = (s: number) => generate({ secret, epoch: Math.floor(now.getTime() / 1000) + s * 30 });
    const step = Math.floor(now.getTime() / 30_000);
    expect(await totp.verify(secret, await at(0), now, null)).to.equal(step);
    expect(await totp.verify(secret, await at(1), now, null)).to.equal(step + 1);
    expect(await totp.verify(secret, await at(-1), now, null)).to.equal(step - 1);
    expect(await totp.verify(secret, await at(3), now, null)).to.equal(null);
    expect(await totp.verify(secret, await at(0), now, step)).to.equal(null);
    expect(await totp.verify(secret, await at(1), now, step)).to.equal(step + 1);
    expect(await totp.verify(secret, 'abcdef', now, null)).to.equal(null);
    expect(await totp.verify('not base32!', '123456', now, null)).to.equal(null);
    expect(totp.uri(secret, 'ama@example.com', 'Nkra')).to.match(/^otpauth:\/\/totp\/Nkra:ama%40example\.com\?.*secret=/);
  });

  it('formats recovery codes in four groups and reads them back in any spelling; reads six-digit codes', () => {
    const code = formatRecoveryCode('AbCdEfGhIjKlMnOp_-');
    expect(code).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(normalizeRecoveryCode(` ${code.toLowerCase().replace(/-/g, ' ')} `)).to.equal(code.replace(/-/g, ''));
    expect(normalizeTotpCode('123 456')).to.equal('123456');
    expect(normalizeTotpCode('12345')).to.equal(null);
  });

  it('derives the relying party from PUBLIC_URL, uses localhost for a loopback address, and checks the settings', async () => {
    expect(twoFactorConfig({}, 'https://app.example.com', 'production')).to.deep.include({ rpId: 'app.example.com', origins: ['https://app.example.com'], requiredForPlatformAdmins: true, challengeTtlSeconds: 300 });
    expect(twoFactorConfig({}, 'http://127.0.0.1:4000', 'development')).to.deep.include({ rpId: 'localhost', origins: ['http://127.0.0.1:4000', 'http://localhost:4000'], requiredForPlatformAdmins: false });
    expect(twoFactorConfig({ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGINS: 'https://a.example.com, https://b.example.com/', TWO_FACTOR_REQUIRED_FOR_ADMINS: 'true' }, 'https://a.example.com', 'test'))
      .to.deep.include({ rpId: 'example.com', origins: ['https://a.example.com', 'https://b.example.com'], requiredForPlatformAdmins: true });
    expect(() => twoFactorConfig({ WEBAUTHN_RP_ID: '10.0.0.1' }, 'https://a.example.com', 'test')).to.throw(ConfigError, /WEBAUTHN_RP_ID/);
    expect(() => twoFactorConfig({ TWO_FACTOR_REQUIRED_FOR_ADMINS: 'false' }, 'https://a.example.com', 'production')).to.throw(ConfigError, /TWO_FACTOR_REQUIRED_FOR_ADMINS/);
    expect(() => twoFactorConfig({ TWO_FACTOR_CHALLENGE_TTL_SECONDS: '5' }, 'https://a.example.com', 'test')).to.throw(ConfigError, /TWO_FACTOR_CHALLENGE_TTL_SECONDS/);
    const config = await loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/nkra-two-factor-config', PUBLIC_URL: 'https://nkra.example.org', WEBAUTHN_RP_NAME: 'Kente' });
    expect(config.twoFactor).to.deep.include({ rpId: 'nkra.example.org', rpName: 'Kente', issuer: 'Kente' });
  });
});
