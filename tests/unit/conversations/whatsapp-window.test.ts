import { expect } from 'chai';
import { WHATSAPP_WINDOW_MS, whatsappWindowOpen } from '../../../core/domain/conversation.ts';
import { ReceiveInboundMessages } from '../../../core/use-cases/conversations/receive-inbound-messages.ts';
import { ReplyToConversation } from '../../../core/use-cases/conversations/reply-to-conversation.ts';
import type { SendDeps } from '../../../core/use-cases/messaging/send-message.ts';
import { buildPipeline, caught, ghPhone, type Pipeline } from '../messaging/messaging-fixtures.ts';

const PHONE_NUMBER_ID = '106540352242922';

async function inbound(p: Pipeline, from: string, body = 'Hello', id = `wamid.${p.core.ids.next()}`) {
  const receive = new ReceiveInboundMessages({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids });
  return receive.execute({ vendor: 'meta-whatsapp', provider: 'meta-test', organizationId: p.organizationId },
    [{ providerMessageId: id, channel: 'WHATSAPP', from, to: PHONE_NUMBER_ID, body, receivedAt: null, profileName: 'Ama' }]);
}

const whatsapp = (to: string, extra: Record<string, unknown> = {}) => ({ channel: 'WHATSAPP', to, body: 'Your order shipped', async: true, ...extra });

describe("WhatsApp's 24-hour customer-service window", () => {
  it('is open strictly less than 24 h after the last inbound message and closed at exactly 24 h', () => {
    const at = new Date('2026-01-15T09:00:00.000Z');
    expect(whatsappWindowOpen(at, new Date(at.getTime() + WHATSAPP_WINDOW_MS - 1))).to.equal(true);
    expect(whatsappWindowOpen(at, new Date(at.getTime() + WHATSAPP_WINDOW_MS))).to.equal(false);
    expect(whatsappWindowOpen(null, at)).to.equal(false);
  });

  it('refuses a live free-form WhatsApp message to a recipient who never wrote with WHATSAPP_WINDOW_CLOSED, before charging', async () => {
    const p = await buildPipeline();
    const error = await caught(() => p.send.execute(p.live, whatsapp(ghPhone(1))));
    expect(error.code).to.equal('WHATSAPP_WINDOW_CLOSED');
    expect(error.details).to.deep.include({ index: 0, lastInboundAt: null });
    expect(await p.balance()).to.equal(10_000);
    expect(await p.messages()).to.have.length(0);
  });

  it('lets it through 1 ms before the 24 h edge and refuses it at the edge (single and bulk, the idempotency key released)', async () => {
    const p = await buildPipeline();
    await inbound(p, ghPhone(1));
    p.core.clock.advance(WHATSAPP_WINDOW_MS - 1);
    expect((await p.send.execute(p.live, whatsapp(ghPhone(1)))).log['status']).to.equal('QUEUED');
    p.core.clock.advance(1);
    expect((await caught(() => p.send.execute(p.live, whatsapp(ghPhone(1), { idempotencyKey: 'k1' })))).code).to.equal('WHATSAPP_WINDOW_CLOSED');
    const bulk = await caught(() => p.bulk.execute(p.live, { async: true, messages: [{ channel: 'SMS', to: ghPhone(2), body: 'sms is fine' }, { channel: 'WHATSAPP', to: ghPhone(1), body: 'late' }] }));
    expect(bulk.code).to.equal('WHATSAPP_WINDOW_CLOSED');
    expect(bulk.details['index']).to.equal(1);
    expect(await p.messages()).to.have.length(1);
    // A new inbound message reopens it; the refused key was released, so it can be used now.
    await inbound(p, ghPhone(1), 'Are you there?');
    expect((await p.send.execute(p.live, whatsapp(ghPhone(1), { idempotencyKey: 'k1' }))).log['status']).to.equal('QUEUED');
  });

  it('allows an approved WhatsApp template outside the window, and sandbox sends', async () => {
    const p = await buildPipeline();
    const template = await p.template({ channel: 'WHATSAPP', body: 'Order {{order}} shipped', status: 'APPROVED' });
    expect((await p.send.execute(p.live, { channel: 'WHATSAPP', to: ghPhone(3), templateId: template.id, variables: { order: 'A1' }, async: true })).log['status']).to.equal('QUEUED');
    expect((await p.send.execute(p.sandbox, whatsapp(ghPhone(3)))).log['status']).to.equal('QUEUED');
  });

  it('holds a conversation reply to the same window', async () => {
    const p = await buildPipeline();
    const received = await inbound(p, ghPhone(4));
    const conversationId = received.stored[0]!.conversation.id;
    const deps: SendDeps = { storage: p.core.storage, pricing: p.core.storage.pricing, clock: p.core.clock, ids: p.core.ids, secrets: p.core.secrets,
      fraud: { recipientPerHour: 20, newTenantDays: 7, newTenantPerHour: 200 }, deliverNow: async () => null };
    const reply = new ReplyToConversation(deps);
    expect((await reply.execute(p.live, conversationId, { body: 'Hi Ama' })).log).to.include({ channel: 'WHATSAPP', recipient: ghPhone(4), status: 'QUEUED' });
    p.core.clock.advance(WHATSAPP_WINDOW_MS);
    const before = await p.balance();
    expect((await caught(() => reply.execute(p.live, conversationId, { body: 'Still there?' }))).code).to.equal('WHATSAPP_WINDOW_CLOSED');
    expect(await p.balance()).to.equal(before);
  });
});
