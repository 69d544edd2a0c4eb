/** Delivery channels (spec section 2). */
export const CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Channels a template may target: the delivery channels plus IN_APP. */
export const TEMPLATE_CHANNELS = [...CHANNELS, 'IN_APP'] as const;
export type TemplateChannel = (typeof TEMPLATE_CHANNELS)[number];

/** Delivery log statuses; REJECTED marks a send blocked before delivery (fraud, suppression). */
export const DELIVERY_STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'PENDING', 'REJECTED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const TEMPLATE_CATEGORIES = ['TRANSACTIONAL', 'MARKETING', 'OTP', 'REMINDER', 'ALERT', 'HEALTHCARE', 'INSURANCE', 'LOGISTICS', 'FINTECH', 'ECOMMERCE'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Categories whose templates wait for a platform administrator's approval before use. */
export const HIGH_RISK_CATEGORIES: readonly TemplateCategory[] = ['MARKETING', 'FINTECH', 'HEALTHCARE', 'INSURANCE'];

export function needsApproval(category: TemplateCategory): boolean {
  return HIGH_RISK_CATEGORIES.includes(category);
}
