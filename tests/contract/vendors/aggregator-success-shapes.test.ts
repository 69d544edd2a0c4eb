import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ARKESEL_NO_ID_PREFIX, ArkeselSmsProvider } from '../../../adapters/providers/arkesel-sms.ts';
import { HubtelSmsProvider } from '../../../adapters/providers/hubtel-sms.ts';
import { MnotifySmsProvider } from '../../../adapters/providers/mnotify-sms.ts';
import { TermiiSmsProvider } from '../../../adapters/providers/termii-sms.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';

/** A vendor that answers every request with one documented answer, byte for byte as the vendor's docs print it. */
async function documentedAnswer(status: number, text: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(text); });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const sms: OutboundMessage = { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null };

describe('Aggregators: every documented success shape is read as accepted (issue 29, "Money and status")', () => {
  let vendor: { url: string; close(): Promise<void> } | null = null;
  afterEach(async () => { await vendor?.close(); vendor = null; });

  it('Hubtel: the older answer HTTP 201 {"Status":0,"MessageId":...} (api.hubtel.com v1) is accepted with its MessageId', async () => {
    vendor = await documentedAnswer(201, '{"Status":0,"MessageId":"7bd4b9c6-2c0a-4b8a-8f7e-5e1a2f0c9d11","Rate":0.0309,"NetworkId":"62001","ClientReference":null}');
    const hubtel = new HubtelSmsProvider({ baseUrl: vendor.url, credentials: { clientId: 'id', clientSecret: 'secret' }, from: 'NKRA' });
    expect(await hubtel.send(sms)).to.deep.equal({ accepted: true, providerMessageId: '7bd4b9c6-2c0a-4b8a-8f7e-5e1a2f0c9d11', delivered: false, networkCode: '62001' });
  });

  it('Hubtel: the current flat answer and the docs portal\'s wrapped answer (responseCode "0000") are accepted', async () => {
    vendor = await documentedAnswer(200, '{"rate":0.0309,"messageId":"9c5f3edc-1111-4c3e-9a55-0b8e3e2f5a01","status":0,"networkId":"62001","clientReference":null,"statusDescription":"request submitted successfully"}');
    const flat = new HubtelSmsProvider({ baseUrl: vendor.url, credentials: { clientId: 'id', clientSecret: 'secret' }, from: 'NKRA' });
    expect(await flat.send(sms)).to.include({ accepted: true, providerMessageId: '9c5f3edc-1111-4c3e-9a55-0b8e3e2f5a01' });
    await vendor.close();
    vendor = await documentedAnswer(200, '{"message":"Success","responseCode":"0000","data":{"rate":0.0309,"messageId":"9c5f3edc-2222-4c3e-9a55-0b8e3e2f5a02","status":0,"networkId":"62001"}}');
    const wrapped = new HubtelSmsProvider({ baseUrl: vendor.url, credentials: { clientId: 'id', clientSecret: 'secret' }, from: 'NKRA' });
    expect(await wrapped.send(sms)).to.include({ accepted: true, providerMessageId: '9c5f3edc-2222-4c3e-9a55-0b8e3e2f5a02' });
  });

  it('Arkesel: v1 {"code":"ok","message":"Successfully Send"} and v2 {"status":"success"} without data are SENT, not failed and refunded', async () => {
    vendor = await documentedAnswer(200, '{"code":"ok","message":"Successfully Send","balance":1234,"user":"Nkra"}');
    const v1 = new ArkeselSmsProvider({ baseUrl: vendor.url, credentials: { apiKey: 'key' }, senderId: 'NKRA' });
    expect(await v1.send(sms)).to.deep.equal({ accepted: true, providerMessageId: `${ARKESEL_NO_ID_PREFIX}msg_1`, delivered: false });
    await vendor.close();
    vendor = await documentedAnswer(200, '{"status":"success","message":"SMS request sent successfully!"}');
    const v2 = new ArkeselSmsProvider({ baseUrl: vendor.url, credentials: { apiKey: 'key' }, senderId: 'NKRA' });
    expect(await v2.send(sms)).to.include({ accepted: true });
  });

  it('Arkesel: v1 numbered codes in an HTTP 200 are classified: 102 Authentication Failed and 105 balance are account-level, 103 the recipient\'s', async () => {
    const cases: Array<[string, string, string, boolean]> = [
      ['102', 'Authentication Failed', 'AUTH_FAILED', true], ['105', 'Insufficient balance', 'VENDOR_BALANCE', true], ['103', 'Invalid phone number', 'INVALID_NUMBER', false],
    ];
    for (const [code, text, errorCode, accountLevel] of cases) {
      vendor = await documentedAnswer(200, JSON.stringify({ code, message: text }));
      const result = await new ArkeselSmsProvider({ baseUrl: vendor.url, credentials: { apiKey: 'key' }, senderId: 'NKRA' }).send(sms);
      expect(result, code).to.include({ accepted: false, retryable: false, errorCode });
      expect(!result.accepted && result.accountLevel === true, code).to.equal(accountLevel);
      await vendor.close();
      vendor = null;
    }
  });

  // Termii "Send message" sample answer (developers.termii.com/messaging-api): message_id 9122821270554876574 is past
  // 2^53, so a JSON reader rounds it; message_id_str keeps it.
  it('Termii: reads the documented answer\'s message_id_str, not the rounded numeric message_id', async () => {
    vendor = await documentedAnswer(200, '{"code":"ok","message_id":9122821270554876574,"message_id_str":"9122821270554876574","message":"Successfully Sent","balance":9,"user":"Peter Mcleish"}');
    const termii = new TermiiSmsProvider({ baseUrl: vendor.url, credentials: { apiKey: 'key' }, senderId: 'NKRA' });
    expect(await termii.send(sms)).to.deep.equal({ accepted: true, providerMessageId: '9122821270554876574', delivered: false });
  });

  it('mNotify: the documented quick-SMS answer (code "2000", summary._id) is accepted with the campaign id', async () => {
    vendor = await documentedAnswer(200, '{"status":"success","code":"2000","message":"messages sent successfully","summary":{"_id":"CC7475AA-200A-499B-9874-5C45E8E32105","message_id":"20250815233545142039V2","type":"API QUICK SMS","total_sent":1,"contacts":1,"total_rejected":0,"numbers_sent":["0545142039"],"credit_used":1,"credit_left":7701}}');
    const mnotify = new MnotifySmsProvider({ baseUrl: vendor.url, credentials: { apiKey: 'key' }, senderId: 'NKRA' });
    expect(await mnotify.send(sms)).to.deep.equal({ accepted: true, providerMessageId: 'CC7475AA-200A-499B-9874-5C45E8E32105', delivered: false });
  });
});
