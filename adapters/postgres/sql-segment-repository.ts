import type { EntityManager } from '@mikro-orm/sql';
import type { Segment } from '../../core/domain/segment.ts';
import { parseSegmentRule, ruleToJson } from '../../core/domain/segment-rules.ts';
import type { SegmentRepository } from '../../core/ports/segment-repository.ts';
import { audienceSql } from './sql-segment-rules.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  id: string; organization_id: string; name: string; description: string | null; rules: unknown; is_dynamic: boolean;
  created_by_user_id: string | null; created_at: Date | string; updated_at: Date | string;
}

function toSegment(r: Row): Segment {
  return {
    id: r.id, organizationId: r.organization_id, name: r.name, description: r.description,
    rules: parseSegmentRule(typeof r.rules === 'string' ? JSON.parse(r.rules) : r.rules), isDynamic: r.is_dynamic,
    createdByUserId: r.created_by_user_id, createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!,
  };
}

export class SqlSegmentRepository implements SegmentRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(s: Segment): Promise<void> {
    await sqlRows(this.#em, `insert into segments (id, organization_id, name, description, rules, is_dynamic, created_by_user_id, created_at, updated_at)
      values ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)`,
    [s.id, s.organizationId, s.name, s.description, JSON.stringify(ruleToJson(s.rules)), s.isDynamic, s.createdByUserId, s.createdAt, s.updatedAt]);
  }

  async findById(organizationId: string, id: string): Promise<Segment | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from segments where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toSegment(rows[0]) : null;
  }

  async list(organizationId: string, limit: number): Promise<Segment[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from segments where organization_id = $1 order by created_at desc, id desc limit $2', [organizationId, limit]);
    return rows.map(toSegment);
  }

  async freezeMembers(segment: Segment): Promise<number> {
    const params: unknown[] = [];
    const from = audienceSql(segment.organizationId, { rule: segment.rules, memberOf: null }, params);
    params.push(segment.id);
    const rows = await sqlRows<{ n: string | number }>(this.#em, `with added as (insert into segment_members (segment_id, contact_id)
      select $${params.length}, c.id ${from} on conflict do nothing returning 1) select count(*) as n from added`, params);
    return Number(rows[0]?.n ?? 0);
  }
}
