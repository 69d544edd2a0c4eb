import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Expo, type ExpoPushReceipt } from 'expo-server-sdk';
import { ExpoPushProvider } from '../../../adapters/providers/expo-push.ts';
import { startFakeExpo, type FakeExpo } from '../../support/fake-vendors/expo.ts';

/**
 * Expo receipts (docs.expo.dev/push-notifications/sending-notifications, "Push receipts"):
 * `POST /--/api/v2/push/getReceipts` with `{ ids }`, answered `{ data: { [id]: receipt } }`. Receipts
 * are written with the official SDK's ExpoPushReceipt type, and the request chunks compared with the
 * SDK's own chunkPushNotificationReceiptIds.
 */
describe('Contract: Expo receipts polling against a local Expo fake', () => {
  let fake: FakeExpo;
  before(async () => { fake = await startFakeExpo({ accessToken: 'expo-access-token-s3cr3t' }); });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.receipts.clear(); fake.receiptRequests.length = 0; });
  const provider = () => new ExpoPushProvider({ baseUrl: fake.url, credentials: { accessToken: 'expo-access-token-s3cr3t' }, timeoutMs: 500 });

  it('asks in the SDK\'s chunks and maps ok, DeviceNotRegistered and MessageTooBig receipts; ids without a receipt are left out', async () => {
    const ids = Array.from({ length: 650 }, () => randomUUID());
    const receipts: Record<string, ExpoPushReceipt> = {
      [ids[0]!]: { status: 'ok' },
      [ids[400]!]: { status: 'error', message: '"ExponentPushToken[xxx]" is not a registered push notification recipient', details: { error: 'DeviceNotRegistered', expoPushToken: 'ExponentPushToken[xxx]' } },
      [ids[649]!]: { status: 'error', message: 'Message was too big', details: { error: 'MessageTooBig' } },
    };
    for (const [id, receipt] of Object.entries(receipts)) fake.receipts.set(id, receipt);
    const { reports, failure } = await provider().fetchReceipts(ids);
    expect(failure).to.equal(null);
    expect(fake.receiptRequests).to.deep.equal(new Expo().chunkPushNotificationReceiptIds(ids));
    expect(reports.map((r) => [r.providerMessageId, r.status, r.errorCode])).to.deep.equal([
      [ids[0], 'DELIVERED', null], [ids[400], 'FAILED', 'UNREGISTERED'], [ids[649], 'FAILED', 'INVALID_REQUEST'],
    ]);
    expect(reports[1]!.vendorStatus).to.contain('DeviceNotRegistered');
  });

  it('stops at a failed or slow request and returns what it read, with the reason and never the access token', async () => {
    const ids = Array.from({ length: 400 }, () => randomUUID());
    fake.receipts.set(ids[0]!, { status: 'ok' } satisfies ExpoPushReceipt);
    fake.script({ kind: 'success' });
    fake.script({ kind: 'error', status: 503 });
    const outage = await provider().fetchReceipts(ids);
    expect(outage.reports.map((r) => r.providerMessageId)).to.deep.equal([ids[0]]);
    expect(outage.failure).to.contain('503').and.not.contain('s3cr3t');
    fake.script({ kind: 'slow', delayMs: 2_000 });
    const slow = await provider().fetchReceipts(ids.slice(0, 10));
    expect(slow.reports).to.deep.equal([]);
    expect(slow.failure).to.contain('no answer within 500 ms');
  });
});
