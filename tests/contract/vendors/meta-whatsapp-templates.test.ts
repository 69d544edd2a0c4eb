import { expect } from 'chai';
import { MetaWhatsappProvider, type MetaWhatsappOptions } from '../../../adapters/providers/meta-whatsapp.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeMetaWhatsapp, type FakeMetaWhatsapp } from '../../support/fake-vendors/meta-whatsapp.ts';

/** One of Meta's documented list entries (template-management "Get templates"), numbered. */
const listed = (n: number) => ({ name: `order_update_${n}`, language: 'en_US', status: n % 2 === 0 ? 'APPROVED' : 'PENDING', category: 'UTILITY', id: String(1_000 + n),
  components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.', example: { body_text: [['Ama', 'A12345']] } }] });

describe('Contract: Meta WhatsApp templates (sending a mapped template, listing the account\'s templates)', () => {
  let fake: FakeMetaWhatsapp;
  before(async () => { fake = await startFakeMetaWhatsapp({ templates: Array.from({ length: 250 }, (_, n) => listed(n)) }); });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.received.length = 0; });

  const provider = (overrides: Partial<MetaWhatsappOptions> = {}) => new MetaWhatsappProvider({
    baseUrl: fake.url, credentials: { accessToken: fake.accessToken, appSecret: fake.appSecret }, phoneNumberId: fake.phoneNumberId,
    apiVersion: fake.apiVersion, timeoutMs: 1_000, businessAccountId: fake.businessAccountId, ...overrides,
  });
  const message = (overrides: Partial<OutboundMessage> = {}): OutboundMessage => ({
    messageId: 'msg_wa_2', internalMessageId: 'int-wa-2', organizationId: 'org-1', channel: 'WHATSAPP', to: '+233241234567', subject: null,
    body: 'Hi Ama, your order A12345 is on its way.', senderId: null, ...overrides,
  });

  it('sends a message carrying whatsappTemplate as exactly that template (Meta\'s documented send shape), even in text mode', async () => {
    const template = { name: 'order_update_0', language: { code: 'en_US' }, components: [
      { type: 'body', parameters: [{ type: 'text' as const, parameter_name: 'first_name', text: 'Ama' }] },
      { type: 'button', sub_type: 'quick_reply', index: '1', parameters: [{ type: 'payload' as const, payload: 'STOP' }] },
    ] };
    const result = await provider().send(message({ whatsappTemplate: template }));
    expect(result.accepted).to.equal(true);
    expect(fake.received[0]?.json).to.deep.equal({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '233241234567', type: 'template', template, biz_opaque_callback_data: 'msg_wa_2',
    });
  });

  it('lists every template of the business account, page after page (cursor after), with the bearer token', async () => {
    const templates = await provider().messageTemplates!();
    expect(templates).to.have.length(250);
    expect(templates[249]).to.deep.include({ name: 'order_update_249', language: 'en_US', status: 'PENDING' });
    expect(templates[0]!.components[0]).to.deep.include({ type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' });
    expect(fake.received.map((r) => r.path)).to.deep.equal(Array(3).fill(`/${fake.apiVersion}/${fake.businessAccountId}/message_templates`));
    expect(fake.received.map((r) => r.query['after'] ?? null)).to.deep.equal([null, fake.received[1]!.query['after'], fake.received[2]!.query['after']]);
    expect(fake.received[1]!.query['after']).to.be.a('string');
    expect(fake.received.every((r) => r.headers.authorization === `Bearer ${fake.accessToken}`)).to.equal(true);
  });

  it('offers no listing without a businessAccountId', () => {
    const { businessAccountId: _ignored, ...rest } = { businessAccountId: 'x' };
    expect(new MetaWhatsappProvider({ credentials: { accessToken: 't' }, phoneNumberId: '1', ...rest }).messageTemplates).to.equal(undefined);
  });

  it('a refused listing (invalid token) is PROVIDER_UNAVAILABLE, not retryable, without the token; a slow page times out, retryable', async () => {
    const wrong = provider({ credentials: { accessToken: 'EAAG-wrong-token' } });
    const refused = await wrong.messageTemplates!().then(() => null, (error: unknown) => error);
    expect(refused).to.be.instanceOf(AppError);
    expect(refused).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: false });
    expect((refused as AppError).message).to.include('HTTP 401').and.include('190').and.not.include('EAAG-wrong-token');
    fake.script({ kind: 'slow', delayMs: 1_500 });
    const slow = await provider({ timeoutMs: 200 }).messageTemplates!().then(() => null, (error: unknown) => error);
    expect(slow).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
  });
});
