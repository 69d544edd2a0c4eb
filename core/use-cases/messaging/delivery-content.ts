import type { WhatsappTemplateSend } from '../../domain/whatsapp-template.ts';
import type { Message } from '../../domain/message.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';

/**
 * What a message says to its recipient: its stored subject, body and WhatsApp template, or, for a
 * message stored masked (a passcode), its sealed content opened (the sealed template replaces the
 * stored, masked one). Null when that content cannot be opened (no key, another key).
 */
export function openContent(sealer: CredentialCipher | undefined, m: Pick<Message, 'subject' | 'body' | 'sealedContent' | 'whatsappTemplate'>): OpenedContent | null {
  const whatsappTemplate = m.whatsappTemplate ?? null;
  if (!m.sealedContent) return { subject: m.subject, body: m.body, whatsappTemplate };
  try {
    const opened = JSON.parse(sealer!.decrypt(m.sealedContent)) as { subject?: unknown; body?: unknown; whatsappTemplate?: WhatsappTemplateSend };
    if (typeof opened.body !== 'string') return null;
    return { subject: typeof opened.subject === 'string' ? opened.subject : null, body: opened.body, whatsappTemplate: whatsappTemplate ? opened.whatsappTemplate ?? null : null };
  } catch {
    return null;
  }
}

export interface OpenedContent { subject: string | null; body: string; whatsappTemplate: WhatsappTemplateSend | null }

/**
 * RFC 2369/8058 headers of an email whose body carries its opt-out link (a marketing email always
 * does): mail clients then offer a one-click unsubscribe that POSTs to the same link.
 */
export function unsubscribeHeaders(links: OptOutLinkSigner | undefined, m: Pick<Message, 'channel' | 'organizationId' | 'recipient' | 'body'>): { headers?: Record<string, string> } {
  if (!links || m.channel !== 'EMAIL') return {};
  const url = links.url(links.token(m.organizationId, m.channel, m.recipient));
  return m.body.includes(url) ? { headers: { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {};
}
