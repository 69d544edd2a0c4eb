import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { pushTokenKind, type PushTokenKind } from '../../../core/domain/recipient.ts';
import { buildPipeline } from './messaging-fixtures.ts';

const FCM_TOKEN = `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`;
const APNS_TOKEN = '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad';
const EXPO_TOKEN = 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]';

/** A push provider serving one kind of device token, as the FCM, APNs and Expo adapters do, behind the guard every vendor gets. */
function pushProvider(kind: PushTokenKind): { recording: RecordingProvider; routed: GuardedProvider } {
  const recording = new RecordingProvider('PUSH', `${kind}-push`);
  Object.assign(recording, { accepts: (to: string) => pushTokenKind(to) === kind });
  return { recording, routed: new GuardedProvider(recording, { breaker: { threshold: 5, cooldownMs: 60_000 }, maxConcurrency: 5, maxPerSecond: 0 }) };
}

describe('Routing push messages by device token kind', () => {
  it('sends each message to the provider its token belongs to, whatever the failover order', async () => {
    const [fcm, apns, expo] = [pushProvider('fcm'), pushProvider('apns'), pushProvider('expo')];
    const p = await buildPipeline({ livePush: [expo.routed, fcm.routed, apns.routed] });
    const sent = [];
    for (const to of [FCM_TOKEN, APNS_TOKEN, EXPO_TOKEN]) sent.push((await p.send.execute(p.live, { channel: 'PUSH', to, body: 'GHS 50.00 received' })).log);
    expect(sent.map((log) => [log['status'], log['provider']])).to.deep.equal([['SENT', 'fcm-push'], ['SENT', 'apns-push'], ['SENT', 'expo-push']]);
    expect(fcm.recording.received.map((m) => m.to)).to.deep.equal([FCM_TOKEN]);
    expect(apns.recording.received.map((m) => m.to)).to.deep.equal([APNS_TOKEN]);
    expect(expo.recording.received.map((m) => m.to)).to.deep.equal([EXPO_TOKEN]);
  });

  it('fails a message no configured provider accepts with a permanent NO_PROVIDER_FOR_TOKEN naming the token kind, and refunds it', async () => {
    const fcm = pushProvider('fcm');
    const p = await buildPipeline({ livePush: [fcm.routed] });
    const { log } = await p.send.execute(p.live, { channel: 'PUSH', to: APNS_TOKEN, body: 'GHS 50.00 received' });
    expect(log).to.include({ status: 'FAILED', errorCode: 'NO_PROVIDER_FOR_TOKEN', cost: 0 });
    expect(String(log['errorMessage'])).to.contain('APNs').and.contain('apns-push');
    expect(fcm.recording.received).to.have.length(0);
    const entries = await p.entries();
    expect(entries.map((e) => e.kind)).to.deep.equal(['DEBIT', 'REFUND']);
    expect(entries[0]!.amount + entries[1]!.amount).to.equal(0);
    expect(await p.balance()).to.equal(10_000);
  });

  it('still tries providers that say nothing about destinations (outbox, sandbox)', async () => {
    const outbox = new RecordingProvider('PUSH', 'outbox-push');
    const p = await buildPipeline({ livePush: [pushProvider('fcm').routed, outbox] });
    const { log } = await p.send.execute(p.live, { channel: 'PUSH', to: EXPO_TOKEN, body: 'hello' });
    expect(log).to.include({ status: 'SENT', provider: 'outbox-push' });
  });
});
