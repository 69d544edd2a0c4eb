import type { TemplateCategory } from './channel.ts';

/**
 * Delivery lanes (docs/adr/0036-delivery-lanes-and-fair-queueing.md): every delivery job runs in one,
 * and a job of a higher lane is always fetched before any job of a lower one, across the whole pipeline
 * (acceptance, the queue, retries, fallback steps), so a passcode never waits behind bulk work.
 */
export const DELIVERY_LANES = ['OTP', 'TRANSACTIONAL', 'MARKETING'] as const;
export type DeliveryLane = (typeof DELIVERY_LANES)[number];

/** A message's lane from its category: OTP passcodes first, MARKETING last, everything else (alerts, reminders ...) between. */
export function laneOf(category: TemplateCategory): DeliveryLane {
  if (category === 'OTP') return 'OTP';
  if (category === 'MARKETING') return 'MARKETING';
  return 'TRANSACTIONAL';
}
