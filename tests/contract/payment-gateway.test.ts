import { PaystackPaymentGateway } from '../../adapters/payments/paystack-gateway.ts';
import { SandboxPaymentGateway } from '../../adapters/payments/sandbox-gateway.ts';
import { startFakePaystack } from '../support/fake-vendors/paystack.ts';
import { describePaymentGatewayContract } from './payment-gateway.contract.ts';

describePaymentGatewayContract('sandbox', async () => {
  const gateway = new SandboxPaymentGateway({ checkoutBaseUrl: 'http://127.0.0.1:3000' });
  const signed = new Map<string, { rawBody: Buffer; signature: string }>();
  return {
    gateway,
    async complete(reference, outcome) { const event = gateway.complete(reference, outcome, new Date()); if (event) signed.set(reference, event); },
    webhook(reference) { return signed.get(reference)!; },
  };
});

describePaymentGatewayContract('paystack (local fake Paystack)', async () => {
  const fake = await startFakePaystack();
  return {
    gateway: new PaystackPaymentGateway({ secretKey: fake.secretKey, baseUrl: fake.url, timeoutMs: 2_000 }),
    async complete(reference, outcome) { fake.settle(reference, outcome); },
    webhook(reference) { return fake.webhook(reference); },
    close: () => fake.close(),
  };
});
