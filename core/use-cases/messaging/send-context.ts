/** Who is sending: the organization from the authenticated principal, never from the body. */
export interface SendContext {
  organizationId: string;
  userId: string | null;
  apiKeyId: string | null;
  /** Sandbox API keys run the whole pipeline but reach only the sandbox provider and are never charged. */
  isSandbox: boolean;
}

/** Fraud caps (docs/messaging-rules.md). Configurable; counted in the database so every process agrees. */
export interface FraudLimits {
  /** Messages to one recipient per organization per rolling hour. */
  recipientPerHour: number;
  /** Organizations younger than this many days are "new". */
  newTenantDays: number;
  /** Messages per rolling hour allowed to a new organization. */
  newTenantPerHour: number;
}

export const DEFAULT_FRAUD_LIMITS: FraudLimits = { recipientPerHour: 20, newTenantDays: 7, newTenantPerHour: 200 };

/** Delivers one accepted message now (DeliverMessage in production); used by synchronous sends. */
export type DeliverNow = (messageId: string) => Promise<import('../../domain/message.ts').Message | null>;
