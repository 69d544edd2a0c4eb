import { randomUUID } from 'node:crypto';
import type { Message } from '../../../core/domain/message.ts';

export const T0 = new Date('2026-03-01T08:00:00.000Z');

/** A delivered SMS delivery log created `second` seconds after T0; override anything. */
export function buildMessage(organizationId: string, second: number, overrides: Partial<Message> = {}): Message {
  const createdAt = new Date(T0.getTime() + second * 1000);
  return {
    id: randomUUID(), organizationId, internalMessageId: `msg_${randomUUID()}`, channel: 'SMS', recipient: '+233241234567', country: 'GH',
    subject: null, body: `Hello number ${second}`, templateId: null, category: 'TRANSACTIONAL', scheduledAt: null, status: 'DELIVERED', errorCode: null, errorMessage: null,
    cost: 5, price: 5, segments: 1, encoding: 'GSM-7', isSandbox: false, apiKeyId: null, userId: null, senderId: null,
    provider: 'sandbox', providerMessageId: null, attempts: 1, leaseUntil: null, createdAt, updatedAt: createdAt,
    sentAt: new Date(createdAt.getTime() + 1000), deliveredAt: new Date(createdAt.getTime() + 3000), failedAt: null,
    ...overrides,
  };
}

/** Parses RFC 4180 text (quoted fields, doubled quotes, CRLF records) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}
