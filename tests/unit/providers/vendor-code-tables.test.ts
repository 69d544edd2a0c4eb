import { expect } from 'chai';
import type { ExpoPushTicket } from 'expo-server-sdk';
import { apnsMeaning } from '../../../adapters/providers/apns-codes.ts';
import { expoDetailError } from '../../../adapters/providers/expo-codes.ts';
import { fcmMeaning } from '../../../adapters/providers/fcm-codes.ts';
import { metaCode } from '../../../adapters/providers/meta-whatsapp-codes.ts';
import { sendgridMeaning } from '../../../adapters/providers/sendgrid-codes.ts';
import { twilioCode } from '../../../adapters/providers/twilio-codes.ts';
import { atStatusCode, atStatusName } from '../../../adapters/providers/africas-talking-codes.ts';

/**
 * The per-vendor tables (docs/providers.md, "What is classified how"), read from the vendors' documented
 * error answers: the vendor's code decides before the HTTP status that carried it.
 */
describe('Vendor code tables: vendor code first, HTTP status second', () => {
  it('Meta: throttling codes sent with HTTP 400 (4, 80007, 130429, 131048, 131056) are retried; 190/10/200 and 131031 are our account; 131026/131047 the recipient', () => {
    // developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes
    for (const code of [4, 80007, 130429, 131048, 131056]) expect(metaCode(code), String(code)).to.deep.equal({ code: 'RATE_LIMITED', scope: 'TRANSIENT' });
    for (const code of [190, 10, 200, 0]) expect(metaCode(code)?.scope, String(code)).to.equal('ACCOUNT');
    expect(metaCode(131031)).to.deep.equal({ code: 'ACCOUNT_RESTRICTED', scope: 'ACCOUNT' });
    expect(metaCode(131026)).to.deep.equal({ code: 'UNDELIVERABLE', scope: 'MESSAGE' });
    expect(metaCode(131047)).to.deep.equal({ code: 'REENGAGEMENT_REQUIRED', scope: 'MESSAGE' });
    expect(metaCode(999_999)).to.equal(null);
  });

  it('Twilio: 20003, 21606, 21408 our account; 20429 transient; 21211, 21610, 30007 the recipient or content', () => {
    expect(twilioCode(20003)).to.deep.equal({ code: 'AUTH_FAILED', scope: 'ACCOUNT' });
    expect(twilioCode('21606')).to.deep.equal({ code: 'INVALID_SENDER', scope: 'ACCOUNT' });
    expect(twilioCode(21408)?.scope).to.equal('ACCOUNT');
    expect(twilioCode(20429)).to.deep.equal({ code: 'RATE_LIMITED', scope: 'TRANSIENT' });
    expect(twilioCode(21211)).to.deep.equal({ code: 'INVALID_NUMBER', scope: 'MESSAGE' });
    expect(twilioCode(21610)).to.deep.equal({ code: 'UNSUBSCRIBED', scope: 'MESSAGE' });
    expect(twilioCode('30007')).to.deep.equal({ code: 'CARRIER_FILTERED', scope: 'MESSAGE' });
  });

  it("Africa's Talking: statusCodes 401/402/405 our account, 403/404/406/409 the recipient, 500-502 transient", () => {
    expect([401, 402, 405].map((c) => atStatusCode(c).scope)).to.deep.equal(['ACCOUNT', 'ACCOUNT', 'ACCOUNT']);
    expect([403, 404, 406, 409].map((c) => atStatusCode(c).scope)).to.deep.equal(['MESSAGE', 'MESSAGE', 'MESSAGE', 'MESSAGE']);
    expect([500, 501, 502].map((c) => atStatusCode(c).scope)).to.deep.equal(['TRANSIENT', 'TRANSIENT', 'TRANSIENT']);
    // A whole-request refusal names the reason: 201 { "SMSMessageData": { "Message": "InvalidSenderId", "Recipients": [] } }
    expect(atStatusName('InvalidSenderId')).to.deep.equal({ code: 'INVALID_SENDER', scope: 'ACCOUNT' });
    expect(atStatusName('RiskHold')).to.deep.equal({ code: 'ACCOUNT_RESTRICTED', scope: 'ACCOUNT' });
    expect(atStatusName('Sent to 0/1 Total Cost: 0')).to.equal(null);
  });

  it('FCM: errorCode first (UNREGISTERED, SENDER_ID_MISMATCH dead token; QUOTA_EXCEEDED, UNAVAILABLE, INTERNAL transient; THIRD_PARTY_AUTH_ERROR our account), then the RPC status', () => {
    // firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode; envelope { error: { code, message, status, details: [{ '@type': '...FcmError', errorCode }] } }
    expect(fcmMeaning('UNREGISTERED', 'NOT_FOUND', false)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(fcmMeaning('SENDER_ID_MISMATCH', 'PERMISSION_DENIED', false)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(fcmMeaning('INVALID_ARGUMENT', 'INVALID_ARGUMENT', true)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(fcmMeaning('INVALID_ARGUMENT', 'INVALID_ARGUMENT', false)).to.deep.equal({ code: 'INVALID_REQUEST', scope: 'MESSAGE' });
    for (const code of ['QUOTA_EXCEEDED', 'UNAVAILABLE', 'INTERNAL']) expect(fcmMeaning(code, null, false)?.scope, code).to.equal('TRANSIENT');
    expect(fcmMeaning('THIRD_PARTY_AUTH_ERROR', 'UNAUTHENTICATED', false)).to.deep.equal({ code: 'AUTH_FAILED', scope: 'ACCOUNT' });
    expect(fcmMeaning(null, 'PERMISSION_DENIED', false)).to.deep.equal({ code: 'AUTH_FAILED', scope: 'ACCOUNT' });
  });

  it('APNs: BadDeviceToken and 410 Unregistered dead tokens, TooManyRequests transient, InvalidProviderToken/ExpiredProviderToken our account', () => {
    // developer.apple.com "Handling notification responses from APNs": body { "reason": "BadDeviceToken" }
    expect(apnsMeaning('BadDeviceToken', 400)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(apnsMeaning('Unregistered', 410)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(apnsMeaning('', 410)).to.deep.equal({ code: 'UNREGISTERED', scope: 'MESSAGE' });
    expect(apnsMeaning('TooManyRequests', 429)).to.deep.equal({ code: 'RATE_LIMITED', scope: 'TRANSIENT' });
    expect(apnsMeaning('InvalidProviderToken', 403)?.scope).to.equal('ACCOUNT');
    expect(apnsMeaning('ExpiredProviderToken', 403)?.scope).to.equal('ACCOUNT');
  });

  it('Expo: ticket errors typed by the SDK (ExpoPushTicket): DeviceNotRegistered, MessageTooBig, MessageRateExceeded, InvalidCredentials', () => {
    // docs.expo.dev/push-notifications/sending-notifications, "Individual errors"
    const tickets: ExpoPushTicket[] = [
      { status: 'error', message: '"ExponentPushToken[xxx]" is not a registered push notification recipient', details: { error: 'DeviceNotRegistered' } },
      { status: 'error', message: 'Message too big', details: { error: 'MessageTooBig' } },
      { status: 'error', message: 'Rate exceeded', details: { error: 'MessageRateExceeded' } },
      { status: 'error', message: 'Invalid credentials', details: { error: 'InvalidCredentials' } },
    ];
    const read = tickets.map((t) => (t.status === 'error' ? expoDetailError(t.details?.error ?? null) : null));
    expect(read).to.deep.equal([
      { code: 'UNREGISTERED', scope: 'MESSAGE' }, { code: 'INVALID_REQUEST', scope: 'MESSAGE' },
      { code: 'RATE_LIMITED', scope: 'TRANSIENT' }, { code: 'AUTH_FAILED', scope: 'ACCOUNT' },
    ]);
  });

  it('SendGrid: 401 and 403 our account (key, unverified sender, credits), a bad to address the recipient', () => {
    // twilio.com/docs/sendgrid/api-reference/mail-send: { "errors": [ { "message", "field", "help" } ] }
    expect(sendgridMeaning(401, [], 'The provided authorization grant is invalid, expired, or revoked')).to.deep.equal({ code: 'AUTH_FAILED', scope: 'ACCOUNT' });
    expect(sendgridMeaning(403, ['from'], 'The from address does not match a verified Sender Identity')).to.deep.equal({ code: 'INVALID_SENDER', scope: 'ACCOUNT' });
    expect(sendgridMeaning(403, [], 'Maximum credits exceeded')).to.deep.equal({ code: 'VENDOR_BALANCE', scope: 'ACCOUNT' });
    expect(sendgridMeaning(400, ['personalizations.0.to.0.email'], 'Does not contain a valid address.')).to.deep.equal({ code: 'INVALID_ADDRESS', scope: 'MESSAGE' });
  });
});
