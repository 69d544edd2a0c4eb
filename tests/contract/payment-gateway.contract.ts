import { expect } from 'chai';
import { AppError } from '../../core/errors.ts';
import type { PaymentGateway } from '../../core/ports/payment-gateway.ts';
import { uniqueId } from './contract-fixtures.ts';

/** What a test needs besides the gateway: the customer paying or failing a checkout, and the webhook the gateway then sends. */
export interface GatewayHarness {
  gateway: PaymentGateway;
  complete(reference: string, outcome: 'success' | 'failed'): Promise<void>;
  /** The signed charge.success webhook of a completed checkout. */
  webhook(reference: string): { rawBody: Buffer; signature: string };
}

/** The PaymentGateway contract (core/ports/payment-gateway.ts), run against the sandbox and Paystack (local fake). */
export function describePaymentGatewayContract(name: string, makeHarness: () => Promise<GatewayHarness & { close?: () => Promise<void> }>): void {
  describe(`PaymentGateway contract: ${name}`, () => {
    let harness: GatewayHarness & { close?: () => Promise<void> };
    before(async () => { harness = await makeHarness(); });
    after(async () => { await harness.close?.(); });

    const open = async (amount = 2_500) => {
      const reference = uniqueId('nkra').replace(/[^A-Za-z0-9-]/g, '');
      const { checkoutUrl } = await harness.gateway.initialize({
        reference, amount, currency: 'GHS', email: 'owner@example.com', callbackUrl: 'https://app.example/return', metadata: {},
      });
      expect(checkoutUrl).to.match(/^https?:\/\//);
      return reference;
    };

    it('reports an opened checkout as pending, then the payment with its amount and currency', async () => {
      const reference = await open(12_345);
      expect(await harness.gateway.verify(reference)).to.include({ reference, outcome: 'pending' });
      await harness.complete(reference, 'success');
      expect(await harness.gateway.verify(reference)).to.deep.include({ reference, outcome: 'success', amount: 12_345, currency: 'GHS' });
    });

    it('reports a failed checkout as failed, and an unknown reference as pending', async () => {
      const reference = await open();
      await harness.complete(reference, 'failed');
      expect((await harness.gateway.verify(reference)).outcome).to.equal('failed');
      expect(await harness.gateway.verify('nkra-unknown-reference')).to.include({ outcome: 'pending', amount: null });
    });

    it('reads its own signed charge.success and refuses the same bytes with any other signature', async () => {
      const reference = await open(5_000);
      await harness.complete(reference, 'success');
      const { rawBody, signature } = harness.webhook(reference);
      expect(harness.gateway.parseWebhook(rawBody, signature)).to.deep.equal({
        event: 'charge.success', confirmation: { reference, outcome: 'success', gatewayStatus: 'success', amount: 5_000, currency: 'GHS' },
      });
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('a') ? 'b' : 'a'}`;
      for (const bad of [flipped, signature.slice(0, 100), '', undefined, 'zz'.repeat(64)]) {
        let error: unknown = null;
        try { harness.gateway.parseWebhook(rawBody, bad); } catch (e) { error = e; }
        expect(error).to.be.instanceOf(AppError).and.have.property('code', 'INVALID_SIGNATURE');
      }
    });
  });
}
