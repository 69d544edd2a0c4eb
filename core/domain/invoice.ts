import { pesewasToGhs, type Pesewas } from './money.ts';
import type { ChannelUsage, LedgerSummary } from './payment.ts';

/**
 * A monthly statement of one organization's wallet: the balance before the month, what came in
 * (top-ups, refunds, adjustments), what went out (message debits, with the usage per channel), and
 * the balance after it. closingBalance = opening + topUps + debits (negative) + refunds + adjustments.
 */
export interface Invoice {
  id: string;
  organizationId: string;
  /** 'YYYY-MM' (UTC). Unique per organization. */
  period: string;
  periodStart: Date;
  periodEnd: Date;
  openingBalance: Pesewas;
  topUps: Pesewas;
  /** Signed: zero or negative. */
  debits: Pesewas;
  refunds: Pesewas;
  adjustments: Pesewas;
  closingBalance: Pesewas;
  usage: ChannelUsage[];
  createdAt: Date;
}

/** The month before `now` as 'YYYY-MM' with its UTC bounds [start, end). */
export function previousMonth(now: Date): { period: string; start: Date; end: Date } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, 1));
  return { period: periodOf(start), start, end };
}

/** The bounds of 'YYYY-MM', or null for anything else. */
export function monthBounds(period: string): { start: Date; end: Date } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(period);
  if (!match) return null;
  const start = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return { start, end: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)) };
}

export function periodOf(date: Date): string {
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function buildInvoice(base: Pick<Invoice, 'id' | 'organizationId' | 'period' | 'periodStart' | 'periodEnd' | 'createdAt'>,
  ledger: LedgerSummary, usage: ChannelUsage[]): Invoice {
  const closingBalance = ledger.openingBalance + ledger.topUps + ledger.debits + ledger.refunds + ledger.adjustments;
  return { ...base, ...ledger, closingBalance, usage };
}

export function invoiceView(invoice: Invoice) {
  return {
    id: invoice.id, period: invoice.period, currency: 'GHS',
    periodStart: invoice.periodStart.toISOString(), periodEnd: invoice.periodEnd.toISOString(),
    openingBalance: pesewasToGhs(invoice.openingBalance), topUps: pesewasToGhs(invoice.topUps),
    debits: pesewasToGhs(invoice.debits), refunds: pesewasToGhs(invoice.refunds), adjustments: pesewasToGhs(invoice.adjustments),
    closingBalance: pesewasToGhs(invoice.closingBalance),
    usage: invoice.usage.map((u) => ({ channel: u.channel, messages: u.messages, segments: u.segments, cost: pesewasToGhs(u.cost) })),
    createdAt: invoice.createdAt.toISOString(),
  };
}

/** The statement as CSV: a header block of totals, then one row per channel. Amounts in GHS with two decimals. */
export function invoiceCsv(invoice: Invoice, organizationName: string): string {
  const ghs = (p: Pesewas) => (p / 100).toFixed(2);
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value; // no formulas in spreadsheets
    return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const lines = [
    'field,value',
    `organization,${cell(organizationName)}`,
    `period,${invoice.period}`,
    'currency,GHS',
    `opening_balance,${ghs(invoice.openingBalance)}`,
    `top_ups,${ghs(invoice.topUps)}`,
    `debits,${ghs(invoice.debits)}`,
    `refunds,${ghs(invoice.refunds)}`,
    `adjustments,${ghs(invoice.adjustments)}`,
    `closing_balance,${ghs(invoice.closingBalance)}`,
    '',
    'channel,messages,segments,cost',
    ...invoice.usage.map((u) => `${u.channel},${u.messages},${u.segments},${ghs(u.cost)}`),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
