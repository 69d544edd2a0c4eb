import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { ApnsPushProvider } from '../../../adapters/providers/apns-push.ts';
import { FcmPushProvider } from '../../../adapters/providers/fcm-push.ts';
import type { Contact } from '../../../core/domain/contact.ts';
import { contactView } from '../../../core/domain/contact.ts';
import { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { startFakeApns, type FakeApns } from '../../support/fake-vendors/apns.ts';
import { fcmError, makeTestServiceAccount, startFakeFcm, type FakeFcm } from '../../support/fake-vendors/fcm.ts';
import { buildPipeline, type Pipeline } from './messaging-fixtures.ts';

const FCM_TOKEN = `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`;
const APNS_TOKEN = '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad';

function contact(p: Pipeline, organizationId: string, fcmToken: string, name: string): Contact {
  const now = p.core.clock.now();
  return { id: p.core.ids.next(), organizationId, firstName: name, lastName: null, phone: null, email: null, countryCode: 'GH', tags: [], fcmToken, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now };
}

/**
 * Dead tokens at send time (issue 29): FCM's and Apple's documented answers for a device that is gone
 * fail the message with UNREGISTERED, and the token leaves the contact holding it (only that token,
 * only that organization) so campaigns and events stop using it.
 */
describe('Dead push tokens reported at send time are removed from contacts', () => {
  let fcm: FakeFcm;
  let apns: FakeApns;
  let fcmProvider: FcmPushProvider;
  let apnsProvider: ApnsPushProvider;
  before(async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fcm = await startFakeFcm({ clientEmail: 'firebase-adminsdk@nkra-test.iam.gserviceaccount.com', publicKey: rsa.publicKey, projectId: 'nkra-test', keyId: 'key-1' });
    fcmProvider = new FcmPushProvider({ baseUrl: fcm.url, credentials: { serviceAccountJson: makeTestServiceAccount(fcm.tokenUri, { keyPair: rsa }).json }, timeoutMs: 2_000 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    apns = await startFakeApns({ teamId: 'TEAM123456', keyId: 'KEY1234567', publicKey: ec.publicKey, topic: 'gh.nkra.wallet' });
    apnsProvider = new ApnsPushProvider({
      baseUrl: apns.url, topic: 'gh.nkra.wallet', timeoutMs: 2_000,
      credentials: { privateKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), keyId: 'KEY1234567', teamId: 'TEAM123456' },
    });
  });
  after(async () => { await apnsProvider.close(); await fcm.close(); await apns.close(); });

  it('FCM 404 UNREGISTERED: the message fails with the reason and only this organization\'s contact loses the token', async () => {
    const p = await buildPipeline({ livePush: [fcmProvider] });
    const mine = contact(p, p.organizationId, FCM_TOKEN, 'Ama');
    const theirs = contact(p, 'another-organization', FCM_TOKEN, 'Kofi');
    const keeper = contact(p, p.organizationId, `${FCM_TOKEN}other`, 'Esi');
    for (const c of [mine, theirs, keeper]) await p.core.storage.contacts.insert(c);
    // firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode: UNREGISTERED (HTTP 404), "App instance was unregistered from FCM.
    // This usually means that the token used is no longer valid and a new one must be used." The documented error body:
    // { "error": { "code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
    //   "details": [ { "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED" } ] } }
    fcm.script({ kind: 'error', status: 404, body: fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.') });
    const { log } = await p.send.execute(p.live, { channel: 'PUSH', to: FCM_TOKEN, subject: 'Hi', body: 'Order shipped' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'UNREGISTERED', cost: 0 });
    const detail = await new GetMessage({ storage: p.core.storage }).execute(p.organizationId, String(log['id']));
    expect(String((detail as Record<string, unknown>)['errorMessage'])).to.contain('UNREGISTERED').and.contain('Requested entity was not found');
    const after = (await p.core.storage.contacts.findById(p.organizationId, mine.id))!;
    expect(after.fcmToken).to.equal(null);
    expect(contactView(after)).to.include({ pushTokenRemovedAt: p.core.clock.now().toISOString() });
    expect(contactView(after).pushTokenRemovedReason).to.contain('UNREGISTERED');
    expect((await p.core.storage.contacts.findById('another-organization', theirs.id))!.fcmToken).to.equal(FCM_TOKEN);
    expect((await p.core.storage.contacts.findById(p.organizationId, keeper.id))!.fcmToken).to.equal(`${FCM_TOKEN}other`);
    const events = await p.core.storage.outboundEvents.listRecent(p.organizationId, 10);
    expect(events.filter((e) => e.kind === 'contact.push_token_removed').map((e) => e.data['contactId'])).to.deep.equal([mine.id]);
  });

  it('APNs 410 Unregistered: the contact holding the token (in upper case) loses it', async () => {
    const p = await buildPipeline({ livePush: [apnsProvider] });
    const mine = contact(p, p.organizationId, APNS_TOKEN.toUpperCase(), 'Ama');
    await p.core.storage.contacts.insert(mine);
    // developer.apple.com "Handling notification responses from APNs": status 410, "The device token is no longer
    // active for the topic", body { "reason": "Unregistered", "timestamp": <ms> }.
    apns.deadTokens.add(APNS_TOKEN);
    const { log } = await p.send.execute(p.live, { channel: 'PUSH', to: APNS_TOKEN, body: 'Order shipped' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'UNREGISTERED' });
    expect((await p.core.storage.contacts.findById(p.organizationId, mine.id))!.fcmToken).to.equal(null);
  });

  it('keeps the token after a failure that says nothing about the device (INVALID_REQUEST)', async () => {
    const p = await buildPipeline({ livePush: [fcmProvider] });
    const mine = contact(p, p.organizationId, FCM_TOKEN, 'Ama');
    await p.core.storage.contacts.insert(mine);
    fcm.script({ kind: 'error', status: 400, body: fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'Invalid value at message.android.ttl', 'message.android.ttl') });
    const { log } = await p.send.execute(p.live, { channel: 'PUSH', to: FCM_TOKEN, body: 'Order shipped' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'INVALID_REQUEST' });
    expect((await p.core.storage.contacts.findById(p.organizationId, mine.id))!.fcmToken).to.equal(FCM_TOKEN);
  });
});
