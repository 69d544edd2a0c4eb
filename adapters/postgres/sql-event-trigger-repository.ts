import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { EventTrigger, PlannedChannel, RetryRules, TriggerPatch, TriggerState, TriggerStep } from '../../core/domain/notification-event.ts';
import type { EventTriggerRepository } from '../../core/ports/event-trigger-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface TriggerRow {
  id: string; organization_id: string; event_id: string; event_slug: string; contact_id: string | null; recipient_to: string | null;
  variables: Record<string, string> | string; country_code: string; template_id: string | null; fallback_subject: string;
  plan: PlannedChannel[] | string; unreachable: Array<{ channel: Channel; reason: string }> | string; retry_rules: RetryRules | string;
  api_key_id: string | null; user_id: string | null; is_sandbox: boolean; state: string; current_step: number; current_attempt: number;
  current_message_id: string | null; retry_at: Date | string | null; version: number; created_at: Date | string; updated_at: Date | string; locale?: string | null;
}

interface StepRow {
  id: string; trigger_id: string; organization_id: string; sequence: number; channel: string; recipient: string; attempt: number;
  message_id: string | null; error_code: string | null; error_message: string | null; created_at: Date | string;
}

function json<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function toTrigger(r: TriggerRow): EventTrigger {
  return {
    id: r.id, organizationId: r.organization_id, eventId: r.event_id, eventSlug: r.event_slug, contactId: r.contact_id, to: r.recipient_to,
    variables: json(r.variables), countryCode: r.country_code, templateId: r.template_id, fallbackSubject: r.fallback_subject, plan: json(r.plan),
    unreachable: json(r.unreachable), retryRules: json(r.retry_rules), apiKeyId: r.api_key_id, userId: r.user_id, isSandbox: r.is_sandbox,
    state: r.state as TriggerState, currentStep: Number(r.current_step), currentAttempt: Number(r.current_attempt), currentMessageId: r.current_message_id,
    retryAt: toDate(r.retry_at), version: Number(r.version), createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
    ...(r.locale ? { locale: r.locale } : {}),
  };
}

function toStep(r: StepRow): TriggerStep {
  return {
    id: r.id, triggerId: r.trigger_id, organizationId: r.organization_id, sequence: Number(r.sequence), channel: r.channel as Channel,
    recipient: r.recipient, attempt: Number(r.attempt), messageId: r.message_id, errorCode: r.error_code, errorMessage: r.error_message,
    createdAt: toDate(r.created_at)!,
  };
}

const PATCH_COLUMNS: Record<keyof TriggerPatch, string> = {
  state: 'state', currentStep: 'current_step', currentAttempt: 'current_attempt', currentMessageId: 'current_message_id', retryAt: 'retry_at', updatedAt: 'updated_at',
};

export class SqlEventTriggerRepository implements EventTriggerRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(t: EventTrigger): Promise<void> {
    await sqlRows(this.#em, `insert into event_triggers (id, organization_id, event_id, event_slug, contact_id, recipient_to, variables, country_code,
      template_id, fallback_subject, plan, unreachable, retry_rules, api_key_id, user_id, is_sandbox, state, current_step, current_attempt,
      current_message_id, retry_at, version, created_at, updated_at, locale)
      values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::jsonb, $12::jsonb, $13::jsonb, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)`,
    [t.id, t.organizationId, t.eventId, t.eventSlug, t.contactId, t.to, JSON.stringify(t.variables), t.countryCode, t.templateId, t.fallbackSubject,
      JSON.stringify(t.plan), JSON.stringify(t.unreachable), JSON.stringify(t.retryRules), t.apiKeyId, t.userId, t.isSandbox, t.state, t.currentStep,
      t.currentAttempt, t.currentMessageId, t.retryAt, t.version, t.createdAt, t.updatedAt, t.locale ?? null], { prepare: true });
  }

  async findById(organizationId: string, id: string): Promise<EventTrigger | null> {
    const rows = await sqlRows<TriggerRow>(this.#em, 'select * from event_triggers where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toTrigger(rows[0]) : null;
  }

  async findForAdvance(id: string): Promise<EventTrigger | null> {
    const rows = await sqlRows<TriggerRow>(this.#em, 'select * from event_triggers where id = $1', [id]);
    return rows[0] ? toTrigger(rows[0]) : null;
  }

  async listByEvent(organizationId: string, eventId: string, limit: number): Promise<EventTrigger[]> {
    const rows = await sqlRows<TriggerRow>(this.#em, `select * from event_triggers where organization_id = $1 and event_id = $2
      order by created_at desc, id desc limit $3`, [organizationId, eventId, Math.min(limit, 100)]);
    return rows.map(toTrigger);
  }

  async advance(id: string, version: number, patch: TriggerPatch): Promise<EventTrigger | null> {
    const sets: string[] = ['version = version + 1'];
    const params: unknown[] = [id, version];
    for (const [key, value] of Object.entries(patch)) {
      const column = PATCH_COLUMNS[key as keyof TriggerPatch];
      if (!column || value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    const rows = await sqlRows<TriggerRow>(this.#em, `update event_triggers set ${sets.join(', ')} where id = $1 and version = $2 returning *`, params);
    return rows[0] ? toTrigger(rows[0]) : null;
  }

  async insertStep(s: TriggerStep): Promise<void> {
    await sqlRows(this.#em, `insert into event_trigger_steps (id, trigger_id, organization_id, sequence, channel, recipient, attempt, message_id,
      error_code, error_message, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [s.id, s.triggerId, s.organizationId, s.sequence, s.channel, s.recipient, s.attempt, s.messageId, s.errorCode, s.errorMessage, s.createdAt], { prepare: true });
  }

  async listSteps(organizationId: string, triggerId: string): Promise<TriggerStep[]> {
    const rows = await sqlRows<StepRow>(this.#em, 'select * from event_trigger_steps where trigger_id = $1 and organization_id = $2 order by sequence limit 100',
      [triggerId, organizationId]);
    return rows.map(toStep);
  }

  async findStepByMessage(messageId: string): Promise<TriggerStep | null> {
    const rows = await sqlRows<StepRow>(this.#em, 'select * from event_trigger_steps where message_id = $1', [messageId], { prepare: true });
    return rows[0] ? toStep(rows[0]) : null;
  }
}
