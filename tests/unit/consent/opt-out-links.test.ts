import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import { HmacOptOutLinks } from '../../../adapters/security/hmac-opt-out-links.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { DEFAULT_FRAUD_LIMITS } from '../../../core/use-cases/messaging/send-context.ts';
import { buildPipeline } from '../messaging/messaging-fixtures.ts';

/** Issue 19, docs/consent.md: the opt-out link token, and what a marketing email carries. */
describe('opt-out links', () => {
  const links = new HmacOptOutLinks('k'.repeat(64), 'https://nkra.example/');

  it('makes one 16-character token per organization, channel and recipient, different for each, and unguessable without the key', () => {
    const token = links.token('org-1', 'SMS', '+233241234567');
    expect(token).to.match(/^[A-Za-z0-9_-]{16}$/);
    expect(links.token('org-1', 'SMS', '+233241234567')).to.equal(token);
    expect(new Set([links.token('org-2', 'SMS', '+233241234567'), links.token('org-1', 'WHATSAPP', '+233241234567'),
      links.token('org-1', 'SMS', '+233241234568'), new HmacOptOutLinks('j'.repeat(64), 'https://nkra.example').token('org-1', 'SMS', '+233241234567')]).size).to.equal(4);
    expect(links.url(token)).to.equal(`https://nkra.example/u/${token}`);
    expect(links.wellFormed(token)).to.equal(true);
    expect(links.wellFormed(`${token}x`)).to.equal(false);
    expect(links.wellFormed('../../etc/passwd')).to.equal(false);
  });

  it('gives a marketing email its link in the body and List-Unsubscribe / List-Unsubscribe-Post headers; a transactional email neither', async () => {
    const p = await buildPipeline();
    const email = new RecordingProvider('EMAIL', 'live-email');
    const providers = new StaticProviderDirectory([email], []);
    const deliver = new DeliverMessage({ storage: p.core.storage, providers, clock: p.core.clock, ids: p.core.ids, maxAttempts: 3, leaseSeconds: 60, optOutLinks: links });
    const send = new SendMessage({ storage: p.core.storage, pricing: p.core.storage.pricing, clock: p.core.clock, ids: p.core.ids, secrets: p.core.secrets,
      fraud: DEFAULT_FRAUD_LIMITS, deliverNow: (id) => deliver.execute(id), optOutLinks: links });
    p.core.clock.set(new Date('2026-11-25T10:00:00.000Z'));
    await send.execute(p.live, { channel: 'EMAIL', to: 'Ama@Example.com', subject: 'Sale', body: '<p>Sale</p>', category: 'MARKETING' });
    await send.execute(p.live, { channel: 'EMAIL', to: 'kofi@example.com', subject: 'Receipt', body: '<p>Receipt</p>' });
    const [marketing, receipt] = email.received;
    // The recipient as the send path normalized it (the domain lowercased), which the link is made for.
    const url = links.url(links.token(p.organizationId, 'EMAIL', marketing!.to));
    expect(marketing!.to).to.equal('Ama@example.com');
    expect(marketing!.body).to.include(`<a href="${url}">`);
    expect(marketing!.headers).to.deep.equal({ 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(receipt!.body).to.equal('<p>Receipt</p>');
    expect(receipt!.headers).to.equal(undefined);
    expect(await p.core.storage.optOutLinks.findByToken(links.token(p.organizationId, 'EMAIL', marketing!.to))).to.include({ recipient: 'Ama@example.com', channel: 'EMAIL' });
  });
});
