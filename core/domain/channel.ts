/**
 * Delivery channels: the spec's five (section 2) plus IN_APP, the in-app inbox (docs/inbox.md), which
 * the spec lists as a template channel only and Nkra delivers itself (no vendor).
 */
export const CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE', 'IN_APP'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Channels delivered through vendors (provider configurations, suppressions): every channel but IN_APP. */
export const VENDOR_CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE'] as const satisfies readonly Channel[];
export type VendorChannel = (typeof VENDOR_CHANNELS)[number];

/** Channels a template may target: every delivery channel (IN_APP included). */
export const TEMPLATE_CHANNELS = CHANNELS;
export type TemplateChannel = (typeof TEMPLATE_CHANNELS)[number];

/**
 * Delivery log statuses; REJECTED marks a send blocked before delivery (fraud, suppression, preferences).
 * SCHEDULED: accepted and charged, held until its `scheduledAt` (a `sendAt`, or the next send window);
 * CANCELLED: a SCHEDULED message withdrawn before its time, refunded (docs/scheduling.md).
 */
export const DELIVERY_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'PENDING', 'REJECTED', 'SCHEDULED', 'CANCELLED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['TRANSACTIONAL', 'MARKETING', 'OTP', 'REMINDER', 'ALERT', 'HEALTHCARE', 'INSURANCE', 'LOGISTICS', 'FINTECH', 'ECOMMERCE'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Categories whose templates wait for a platform administrator's approval before use. */
export const HIGH_RISK_CATEGORIES: readonly TemplateCategory[] = ['MARKETING', 'FINTECH', 'HEALTHCARE', 'INSURANCE'];

/**
 * Categories a recipient cannot opt out of and that no send window or quiet hours hold back
 * (docs/consent.md): the messages a person asked for or needs now.
 */
export const EXEMPT_CATEGORIES: readonly TemplateCategory[] = ['TRANSACTIONAL', 'OTP'];

export function isExemptCategory(category: TemplateCategory): boolean {
  return EXEMPT_CATEGORIES.includes(category);
}

export function needsApproval(category: TemplateCategory): boolean {
  return HIGH_RISK_CATEGORIES.includes(category);
}
