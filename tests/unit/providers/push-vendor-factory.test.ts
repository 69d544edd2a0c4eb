import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { ApnsPushProvider } from '../../../adapters/providers/apns-push.ts';
import { ExpoPushProvider } from '../../../adapters/providers/expo-push.ts';
import { createVendorAdapter } from '../../../adapters/providers/vendor-factory.ts';
import type { ProviderConfig } from '../../../core/domain/provider.ts';

const context = { outboxDirectory: '/tmp/nkra-outbox', timeoutMs: 1_000, publicUrl: 'http://127.0.0.1' };

function config(vendor: string, settings: Record<string, string> = {}): ProviderConfig {
  const now = new Date('2026-11-25T00:00:00Z');
  return {
    id: `p-${vendor}`, name: vendor, vendor, channel: 'PUSH', priority: 1, active: true, settings, countries: ['*'], hasCredentials: true,
    organizationId: null, platformFallback: false, createdAt: now, updatedAt: now,
  };
}

describe('Push vendors in the provider factory (PROVIDERS_FILE and /admin/providers)', () => {
  const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const apnsCredentials = { privateKey, keyId: 'KEY1234567', teamId: 'TEAM123456' };

  it('builds apns-push from its credentials and topic, and refuses a missing topic, key id or unknown environment', async () => {
    const apns = createVendorAdapter(config('apns-push', { topic: 'gh.nkra.wallet', environment: 'sandbox' }), apnsCredentials, context);
    expect(apns).to.be.instanceOf(ApnsPushProvider);
    await (apns as ApnsPushProvider).close();
    expect(() => createVendorAdapter(config('apns-push'), apnsCredentials, context)).to.throw('setting "topic" is required');
    expect(() => createVendorAdapter(config('apns-push', { topic: 't' }), { ...apnsCredentials, keyId: '' }, context)).to.throw('credential "keyId" is required');
    expect(() => createVendorAdapter(config('apns-push', { topic: 't', environment: 'development' }), apnsCredentials, context)).to.throw('"environment" must be');
  });

  it('builds expo-push with or without an access token', () => {
    expect(createVendorAdapter(config('expo-push'), {}, context)).to.be.instanceOf(ExpoPushProvider);
    expect(createVendorAdapter(config('expo-push'), { accessToken: 'x' }, context)).to.be.instanceOf(ExpoPushProvider);
  });
});
