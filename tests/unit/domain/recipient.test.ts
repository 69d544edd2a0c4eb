import { expect } from 'chai';
import { Expo } from 'expo-server-sdk';
import type { Channel } from '../../../core/domain/channel.ts';
import { EMAIL_MAX_LENGTH, isPhoneChannel, normalizeEmail, normalizeRecipient, pushTokenKind } from '../../../core/domain/recipient.ts';

/** A realistic FCM registration token: instance id, ':', then a 'APA91b' URL-safe base64 blob. */
const FCM_TOKEN = 'dXk3b9Q2RmS8TmVtb0pLcW:APA91bH' + 'x1Yz_AbC-dEf0123456789'.repeat(6);

function reason(channel: Channel, raw: string, country?: string): string {
  const result = country === undefined ? normalizeRecipient(channel, raw) : normalizeRecipient(channel, raw, country);
  if (result.ok) throw new Error(`expected ${raw} to be refused, got ${result.recipient}`);
  return result.reason;
}

describe('domain: normalizeRecipient', () => {
  it('turns an SMS, WhatsApp or voice recipient into E.164 with its country, Ghana by default', () => {
    for (const channel of ['SMS', 'WHATSAPP', 'VOICE'] as const) {
      const result = normalizeRecipient(channel, '024 123 4567');
      expect(result, channel).to.deep.include({ ok: true, recipient: '+233241234567', country: 'GH' });
      expect(isPhoneChannel(channel)).to.equal(true);
    }
  });

  it('reads a phone recipient with the given country code and reports the number\'s own country', () => {
    expect(normalizeRecipient('SMS', '0803 123 4567', 'NG')).to.deep.include({ ok: true, recipient: '+2348031234567', country: 'NG' });
    expect(normalizeRecipient('SMS', '+234 803 123 4567', 'GH')).to.deep.include({ ok: true, country: 'NG' });
  });

  it('hands the parsed number on for the fraud checks', () => {
    const result = normalizeRecipient('SMS', '+44 909 879 0000');
    expect(result.ok && result.phone).to.deep.include({ type: 'PREMIUM_RATE', country: 'GB' });
  });

  it('passes on the phone reason for a bad number', () => {
    expect(reason('SMS', '024 123')).to.equal('is too short to be a phone number for GH');
    expect(reason('WHATSAPP', '+233 24 123 4567 ext 5')).to.equal('may contain only digits, spaces, ( ) . - / and a leading +');
    expect(reason('VOICE', 'someone@example.com')).to.equal('is not a phone number');
  });

  it('trims an email address and lowercases its domain only', () => {
    expect(normalizeRecipient('EMAIL', '  Ama.Mensah+Bills@Example.COM.GH ')).to.deep.equal(
      { ok: true, recipient: 'Ama.Mensah+Bills@example.com.gh', country: null, phone: null });
    expect(isPhoneChannel('EMAIL')).to.equal(false);
  });

  it('accepts the RFC 5322 specials in a local part and hyphens and digits in a domain', () => {
    for (const address of ["o'brien@mail-1.example.org", 'a!#$%&*/=?^_`{|}~-@x.io', 'kofi@xn--80ak6aa92e.com', 'x@1and1.co.uk']) {
      expect(normalizeEmail(address), address).to.equal(address);
    }
  });

  it('refuses addresses that are not plain user@host', () => {
    const bad = ['', 'kofi', 'kofi@', '@example.com', 'kofi@localhost', 'kofi@example', 'kofi@@example.com', 'kofi @example.com',
      '.kofi@example.com', 'kofi.@example.com', 'ko..fi@example.com', 'kofi@-example.com', 'kofi@example-.com', 'kofi@exa_mple.com',
      'kofi@example..com', 'kofi@.example.com', 'kofi@example.com.', 'kofi@192.168.0.1', 'kofi@[192.168.0.1]', '"kofi"@example.com',
      'kɔfi@example.com', 'kofi@exámple.com', 'kofi@exa\nmple.com', 'ko\tfi@example.com', 'a@b@example.com'];
    for (const address of bad) expect(normalizeEmail(address), JSON.stringify(address)).to.equal(null);
    expect(reason('EMAIL', 'not-an-email')).to.equal('is not a valid email address');
  });

  it('accepts an address of exactly 254 characters and refuses 255', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`;
    const atLimit = `${'k'.repeat(EMAIL_MAX_LENGTH - domain.length - 1)}@${domain}`;
    expect(atLimit).to.have.length(254);
    expect(normalizeEmail(atLimit)).to.equal(atLimit);
    expect(normalizeEmail(`k${atLimit}`)).to.equal(null);
  });

  it('refuses a local part over 64 characters and a domain label over 63', () => {
    expect(normalizeEmail(`${'k'.repeat(64)}@example.com`)).not.to.equal(null);
    expect(normalizeEmail(`${'k'.repeat(65)}@example.com`)).to.equal(null);
    expect(normalizeEmail(`kofi@${'a'.repeat(63)}.com`)).not.to.equal(null);
    expect(normalizeEmail(`kofi@${'a'.repeat(64)}.com`)).to.equal(null);
  });

  it('accepts an FCM registration token, trimmed and case kept', () => {
    expect(normalizeRecipient('PUSH', ` ${FCM_TOKEN}\n`)).to.deep.equal({ ok: true, recipient: FCM_TOKEN, country: null, phone: null, pushTokenKind: 'fcm' });
  });

  it('accepts push tokens of 100 and 4096 characters and refuses 99 and 4097', () => {
    expect(normalizeRecipient('PUSH', 'a'.repeat(100)).ok).to.equal(true);
    expect(normalizeRecipient('PUSH', 'a'.repeat(4096)).ok).to.equal(true);
    expect(normalizeRecipient('PUSH', 'a'.repeat(99)).ok).to.equal(false);
    expect(normalizeRecipient('PUSH', 'a'.repeat(4097)).ok).to.equal(false);
  });

  it('refuses a push token with spaces, dots, slashes or other characters outside A-Z a-z 0-9 _ : -', () => {
    for (const bad of [' ', '.', '/', '+', '=', 'ɛ']) {
      const token = FCM_TOKEN.slice(0, 120) + bad + FCM_TOKEN.slice(120);
      expect(normalizeRecipient('PUSH', token).ok, JSON.stringify(bad)).to.equal(false);
    }
    expect(reason('PUSH', '0241234567')).to.equal('is not a valid push device token (an FCM registration token, a 64-hex-digit APNs token, an Expo push token or a Web Push subscription JSON)');
  });

  it('accepts the tokens apps really have and detects their service: FCM, APNs (64 hex digits, lowercased), Expo', () => {
    expect(normalizeRecipient('PUSH', FCM_TOKEN)).to.deep.include({ ok: true, recipient: FCM_TOKEN, pushTokenKind: 'fcm' });
    const apns = '740F4707BEBCF74F9B7C25D48E3358945F6AA01DA5DDB387462C7EAF61BB78AD';
    expect(normalizeRecipient('PUSH', apns)).to.deep.include({ ok: true, recipient: apns.toLowerCase(), pushTokenKind: 'apns' });
    for (const expo of ['ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]', 'ExpoPushToken[AbC123-_xyz0123456789]']) {
      expect(normalizeRecipient('PUSH', expo)).to.deep.include({ ok: true, recipient: expo, pushTokenKind: 'expo' });
    }
    for (const bad of ['f'.repeat(63), 'f'.repeat(65), 'ExponentPushToken[a b', 'g'.repeat(64)]) {
      expect(normalizeRecipient('PUSH', bad).ok, bad).to.equal(false);
    }
    expect(pushTokenKind('not a token')).to.equal(null);
  });

  // Expo's own SDK (expo-server-sdk, `Expo.isExpoPushToken`) is the oracle: a bare UUID is a valid Expo token.
  it('accepts as Expo tokens exactly what Expo.isExpoPushToken accepts, bare UUIDs included', () => {
    const candidates = [
      'a1b2c3d4-e5f6-7890-abcd-ef1234567890', 'A1B2C3D4-E5F6-7890-ABCD-EF1234567890', 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]', 'ExpoPushToken[AbC123-_xyz0123456789]',
      'ExponentPushToken[]', 'ExponentPushToken[a b]', 'ExpoPushToken[x', 'a1b2c3d4-e5f6-7890-abcd-ef123456789', 'a1b2c3d4e5f67890abcdef1234567890', 'not a token',
    ];
    for (const token of candidates) {
      expect(pushTokenKind(token) === 'expo', token).to.equal(Expo.isExpoPushToken(token));
    }
    expect(normalizeRecipient('PUSH', 'a1b2c3d4-e5f6-7890-abcd-ef1234567890')).to.deep.include({ ok: true, recipient: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890', pushTokenKind: 'expo' });
  });
});
