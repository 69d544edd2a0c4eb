import { randomUUID } from 'node:crypto';
import type { Storage } from '../../core/ports/storage.ts';

/**
 * As if `phone` had just written to the organization on WhatsApp: its 24-hour customer-service
 * window is open, so live free-form WhatsApp sends to it are accepted (docs/conversations.md).
 */
export async function openWhatsappWindow(storage: Storage, organizationId: string, phone: string, at = new Date()): Promise<void> {
  if (await storage.conversations.findByAddress(organizationId, 'WHATSAPP', phone)) return;
  await storage.conversations.insert({ id: randomUUID(), organizationId, contactId: randomUUID(), channel: 'WHATSAPP', address: phone, lastInboundTo: 'test-number',
    lastInboundAt: at, lastMessageAt: at, lastMessagePreview: 'hi', unreadCount: 0, createdAt: at, updatedAt: at });
}
