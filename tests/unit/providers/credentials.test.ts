import { expect } from 'chai';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { ConfigError } from '../../../hosts/config.ts';
import { resolveEnvReferences } from '../../../hosts/provider-runtime.ts';

describe('provider credentials', () => {
  const cipher = new AesGcmCredentialCipher('11'.repeat(32));

  it('encrypt to a ciphertext that does not contain the secret and decrypts back', () => {
    const text = cipher.encrypt('{"apiKey":"super-secret-key"}');
    expect(text).to.not.include('super-secret-key');
    expect(text).to.not.equal(cipher.encrypt('{"apiKey":"super-secret-key"}'));
    expect(cipher.decrypt(text)).to.equal('{"apiKey":"super-secret-key"}');
  });

  it('refuse a tampered ciphertext or another key', () => {
    const text = cipher.encrypt('secret');
    const parts = text.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'))).to.throw();
    expect(() => new AesGcmCredentialCipher('22'.repeat(32)).decrypt(text)).to.throw();
  });

  it('are read from the environment when the providers file says env:NAME, and a missing one is a configuration error', () => {
    const resolved = resolveEnvReferences({ providers: [{ credentials: { apiKey: 'env:ARKESEL_KEY' }, settings: { senderId: 'NKRA' } }] }, { ARKESEL_KEY: 'k-123' });
    expect(resolved).to.deep.equal({ providers: [{ credentials: { apiKey: 'k-123' }, settings: { senderId: 'NKRA' } }] });
    expect(() => resolveEnvReferences({ a: 'env:MISSING' }, {})).to.throw(ConfigError, /MISSING/);
  });
});
