import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { FallbackRules, NotificationEvent, RetryRules } from '../../core/domain/notification-event.ts';
import type { NotificationEventPatch, NotificationEventRepository } from '../../core/ports/notification-event-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; name: string; slug: string; description: string | null; channel_priority: Channel[] | string;
  template_id: string | null; retry_rules: RetryRules | string; fallback_rules: FallbackRules | string; is_active: boolean;
  created_at: Date | string; updated_at: Date | string;
}

function json<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

function toEvent(r: Row): NotificationEvent {
  return {
    id: r.id, organizationId: r.organization_id, name: r.name, slug: r.slug, description: r.description, channelPriority: json(r.channel_priority),
    templateId: r.template_id, retryRules: json(r.retry_rules), fallbackRules: json(r.fallback_rules), isActive: r.is_active,
    createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

/** Patch property -> column (jsonb columns take their value as JSON text). */
const COLUMNS: Record<Exclude<keyof NotificationEventPatch, never>, { column: string; json?: boolean }> = {
  name: { column: 'name' }, slug: { column: 'slug' }, description: { column: 'description' },
  channelPriority: { column: 'channel_priority', json: true }, templateId: { column: 'template_id' },
  retryRules: { column: 'retry_rules', json: true }, fallbackRules: { column: 'fallback_rules', json: true },
  isActive: { column: 'is_active' }, updatedAt: { column: 'updated_at' },
};

export class SqlNotificationEventRepository implements NotificationEventRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(e: NotificationEvent): Promise<void> {
    // Through the ORM's execute (not sqlRows) so a duplicate slug surfaces as a unique violation.
    await translateUniqueViolation('notification event', () => this.#em.execute(`insert into notification_events
      (id, organization_id, name, slug, description, channel_priority, template_id, retry_rules, fallback_rules, is_active, created_at, updated_at)
      values (?, ?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb, ?, ?, ?)`,
    [e.id, e.organizationId, e.name, e.slug, e.description, JSON.stringify(e.channelPriority), e.templateId, JSON.stringify(e.retryRules),
      JSON.stringify(e.fallbackRules), e.isActive, e.createdAt, e.updatedAt]));
  }

  async findById(organizationId: string, id: string): Promise<NotificationEvent | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from notification_events where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toEvent(rows[0]) : null;
  }

  async findBySlug(organizationId: string, slug: string): Promise<NotificationEvent | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from notification_events where organization_id = $1 and slug = $2', [organizationId, slug], { prepare: true });
    return rows[0] ? toEvent(rows[0]) : null;
  }

  async list(organizationId: string, limit: number): Promise<NotificationEvent[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from notification_events where organization_id = $1 order by created_at desc, id desc limit $2',
      [organizationId, Math.min(limit, 500)]);
    return rows.map(toEvent);
  }

  async update(organizationId: string, id: string, patch: NotificationEventPatch): Promise<NotificationEvent | null> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const spec = COLUMNS[key as keyof NotificationEventPatch];
      if (!spec || value === undefined) continue;
      params.push(spec.json ? JSON.stringify(value) : value);
      sets.push(`${spec.column} = ?${spec.json ? '::jsonb' : ''}`);
    }
    params.push(organizationId, id);
    const result = await translateUniqueViolation('notification event', () => this.#em.execute<Row[]>(
      `update notification_events set ${sets.join(', ')} where organization_id = ? and id = ? returning *`, params));
    const row = (result as unknown as Row[])[0];
    return row ? toEvent(row) : null;
  }
}
