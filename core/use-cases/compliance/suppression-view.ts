import type { Suppression } from '../../ports/suppression-repository.ts';

export function suppressionView(s: Suppression) {
  return { id: s.id, phone: s.phone, email: s.email, channel: s.channel, category: s.category, reason: s.reason, createdAt: s.createdAt.toISOString() };
}
export type SuppressionView = ReturnType<typeof suppressionView>;
