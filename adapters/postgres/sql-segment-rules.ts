import type { Audience, SegmentRule, TextField } from '../../core/domain/segment-rules.ts';

const COLUMNS: Record<TextField | 'fcmToken', string> = {
  firstName: 'c.first_name', lastName: 'c.last_name', email: 'c.email', phone: 'c.phone', countryCode: 'c.country_code', fcmToken: 'c.fcm_token',
};
const CASE_INSENSITIVE: ReadonlySet<TextField> = new Set(['firstName', 'lastName']);

/**
 * Compiles a parsed segment rule to a SQL condition over `contacts c`. Every value goes into
 * `params` as a $n placeholder; only column names from the fixed table above are written into the
 * text, so no input ever becomes SQL.
 */
export function compileRule(rule: SegmentRule, params: unknown[]): string {
  const bind = (value: unknown) => { params.push(value); return `$${params.length}`; };
  if ('all' in rule) return rule.all.length === 0 ? 'true' : `(${rule.all.map((r) => compileRule(r, params)).join(' and ')})`;
  if ('any' in rule) return rule.any.length === 0 ? 'false' : `(${rule.any.map((r) => compileRule(r, params)).join(' or ')})`;
  switch (rule.field) {
    case 'tags': return `${rule.op === 'contains' ? '' : 'not '}(c.tags @> jsonb_build_array(${bind(rule.value)}::text))`;
    case 'createdAt': return `c.created_at ${rule.op === 'before' ? '<' : '>'} ${bind(rule.value)}::timestamptz`;
    case 'address': return `${COLUMNS[rule.value]} is not null`;
    case 'optedOut': return rule.value ? 'c.opted_out_at is not null' : 'c.opted_out_at is null';
    case 'locale': {
      if (rule.op === 'exists') return rule.value ? 'c.locale is not null' : 'c.locale is null';
      if (rule.op === 'equals') return `lower(c.locale) = any(${bind(rule.value)}::text[])`;
      return `(${rule.value.map((v) => `starts_with(lower(c.locale), ${bind(v)}::text)`).join(' or ')})`;
    }
    case 'attribute': {
      const column = `(c.attributes ->> ${bind(rule.name)}::text)`;
      if (rule.op === 'exists') return `${column} is not null`;
      if (rule.op === 'equals') return `${column} = any(${bind(rule.value)}::text[])`;
      const parts = rule.value.map((v) => (rule.op === 'contains' ? `strpos(${column}, ${bind(v)}::text) > 0` : `starts_with(${column}, ${bind(v)}::text)`));
      return `(${parts.join(' or ')})`;
    }
    default: {
      const insensitive = CASE_INSENSITIVE.has(rule.field);
      const column = insensitive ? `lower(${COLUMNS[rule.field]})` : COLUMNS[rule.field];
      const values = insensitive ? rule.value.map((v) => v.toLowerCase()) : rule.value;
      if (rule.op === 'equals') return `${column} = any(${bind(values)}::text[])`;
      const parts = values.map((v) => (rule.op === 'contains' ? `strpos(${column}, ${bind(v)}::text) > 0` : `starts_with(${column}, ${bind(v)}::text)`));
      return `(${parts.join(' or ')})`;
    }
  }
}

/** `from ... where ...` selecting an organization's audience as `c` ($1 is the organization id). */
export function audienceSql(organizationId: string, audience: Audience, params: unknown[]): string {
  params.push(organizationId);
  const membership = audience.memberOf === null ? '' : (() => { params.push(audience.memberOf); return ` and exists (select 1 from segment_members m where m.segment_id = $${params.length} and m.contact_id = c.id)`; })();
  return `from contacts c where c.organization_id = $1${membership} and ${compileRule(audience.rule, params)}`;
}
