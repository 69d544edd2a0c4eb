import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { AppError } from '../../../core/errors.ts';
import { PaystackPaymentGateway } from '../../../adapters/payments/paystack-gateway.ts';
import { startFakePaystack, type FakePaystack } from '../../support/fake-vendors/paystack.ts';

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  try { await promise; } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected an AppError');
}

function syncThrown(work: () => unknown): AppError {
  try { work(); } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected an AppError');
}

describe('Paystack payment gateway against a local fake Paystack', () => {
  let fake: FakePaystack;
  before(async () => { fake = await startFakePaystack(); });
  after(async () => { await fake.close(); });

  const gateway = (overrides: { secretKey?: string; timeoutMs?: number } = {}) =>
    new PaystackPaymentGateway({ secretKey: overrides.secretKey ?? fake.secretKey, baseUrl: fake.url, timeoutMs: overrides.timeoutMs ?? 2_000 });
  const checkout = (reference: string) => ({
    reference, amount: 2_500, currency: 'GHS' as const, email: 'owner@example.com', callbackUrl: 'https://app.example/billing/return', metadata: { organizationId: 'org-1' },
  });

  it('initializes a transaction in pesewas and GHS with our reference, the billing email and the callback URL, offering every channel', async () => {
    const { checkoutUrl } = await gateway().initialize(checkout('nkra-init1'));
    expect(checkoutUrl).to.match(new RegExp(`^${fake.url}/checkout/[0-9a-f]+$`));
    const request = fake.received.at(-1)!;
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/transaction/initialize');
    expect(request.headers.authorization).to.equal(`Bearer ${fake.secretKey}`);
    expect(request.headers['content-type']).to.equal('application/json');
    expect(request.json).to.deep.equal({
      email: 'owner@example.com', amount: 2_500, currency: 'GHS', reference: 'nkra-init1', callback_url: 'https://app.example/billing/return', metadata: { organizationId: 'org-1' },
    });
  });

  it('verifies by reference: success with amount and currency, failures, and references Paystack does not know', async () => {
    await gateway().initialize(checkout('nkra-verify1'));
    expect(await gateway().verify('nkra-verify1')).to.deep.equal({ reference: 'nkra-verify1', outcome: 'pending', gatewayStatus: 'ongoing', amount: 2_500, currency: 'GHS' });
    fake.settle('nkra-verify1', 'success');
    expect(await gateway().verify('nkra-verify1')).to.deep.equal({ reference: 'nkra-verify1', outcome: 'success', gatewayStatus: 'success', amount: 2_500, currency: 'GHS' });
    expect(fake.received.at(-1)!.path).to.equal('/transaction/verify/nkra-verify1');
    await gateway().initialize(checkout('nkra-verify2'));
    fake.settle('nkra-verify2', 'abandoned');
    expect((await gateway().verify('nkra-verify2')).outcome).to.equal('failed');
    expect(await gateway().verify('nkra-never')).to.deep.equal({ reference: 'nkra-never', outcome: 'pending', gatewayStatus: 'not_found', amount: null, currency: null });
  });

  it('reports the amount Paystack confirms, not the one we asked for', async () => {
    await gateway().initialize(checkout('nkra-short'));
    fake.settle('nkra-short', 'success', { amount: 100 });
    expect(await gateway().verify('nkra-short')).to.include({ outcome: 'success', amount: 100 });
  });

  it('turns a refused key into a non-retryable PROVIDER_UNAVAILABLE that never shows the key', async () => {
    const wrongKey = 'sk_test_wrong-key-that-must-not-leak';
    const error = await thrown(gateway({ secretKey: wrongKey }).initialize(checkout('nkra-badkey')));
    expect(error.code).to.equal('PROVIDER_UNAVAILABLE');
    expect(error.retryable).to.equal(false);
    expect(error.message).to.include('HTTP 401');
    expect(JSON.stringify({ message: error.message, details: error.details })).to.not.include(wrongKey);
  });

  it('refuses a duplicate reference (400) without retrying, and retries 5xx and timeouts', async () => {
    await gateway().initialize(checkout('nkra-dupe'));
    const duplicate = await thrown(gateway().initialize(checkout('nkra-dupe')));
    expect(duplicate).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: false });
    expect(duplicate.message).to.include('Duplicate Transaction Reference');
    fake.script({ kind: 'error', status: 502 });
    expect(await thrown(gateway().verify('nkra-dupe'))).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    fake.script({ kind: 'slow', delayMs: 500 });
    const slow = await thrown(gateway({ timeoutMs: 150 }).verify('nkra-dupe'));
    expect(slow).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    expect(slow.message).to.include('no answer within 150 ms');
  });

  it('accepts a webhook signed with the secret key and refuses forged, truncated, re-serialized and empty signatures', async () => {
    await gateway().initialize(checkout('nkra-hook'));
    fake.settle('nkra-hook', 'success');
    const { rawBody, signature } = fake.webhook('nkra-hook');
    expect(gateway().parseWebhook(rawBody, signature)).to.deep.equal({
      event: 'charge.success', confirmation: { reference: 'nkra-hook', outcome: 'success', gatewayStatus: 'success', amount: 2_500, currency: 'GHS' },
    });
    expect(gateway().parseWebhook(rawBody, signature.toUpperCase()).event).to.equal('charge.success');
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString('utf8'))).replace('{"event"', '{ "event"'));
    const refused: Array<[Buffer, string | undefined]> = [
      [rawBody, createHmac('sha512', 'sk_test_other').update(rawBody).digest('hex')],
      [rawBody, signature.slice(0, 127)],
      [rawBody, createHmac('sha256', fake.secretKey).update(rawBody).digest('hex')],
      [reserialized, signature],
      [rawBody, ''],
      [rawBody, undefined],
      [rawBody, `${signature}00`],
    ];
    for (const [body, sig] of refused) expect(syncThrown(() => gateway().parseWebhook(body, sig)).code).to.equal('INVALID_SIGNATURE');
    const other = fake.webhook('nkra-hook', 'transfer.success');
    expect(gateway().parseWebhook(other.rawBody, other.signature)).to.deep.equal({ event: 'transfer.success', confirmation: null });
    const junk = Buffer.from('not json');
    expect(syncThrown(() => gateway().parseWebhook(junk, createHmac('sha512', fake.secretKey).update(junk).digest('hex'))).code).to.equal('VALIDATION_ERROR');
  });
});
