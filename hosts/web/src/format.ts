/**
 * Pure helpers of the dashboard (no DOM, no React): formatting, template placeholders, and reading
 * API answers whose exact shape may vary. Unit-tested in tests/unit/web/format.test.ts.
 */

/** GHS with two decimals, whatever the API sent (number, numeric string, or a { amount } object); '—' when not a number. */
export function ghs(value: unknown): string {
  let n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (value && typeof value === 'object' && 'amount' in value) n = Number((value as { amount: unknown }).amount);
  if (!Number.isFinite(n)) return '—';
  const sign = n < 0 ? '-' : '';
  const [whole, cents] = Math.abs(n).toFixed(2).split('.') as [string, string];
  return `${sign}GHS ${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/**
 * How a time is shown: `datetime` on pages ("23 Nov 2026, 06:06:12"), `time` on a chart's minute axis
 * ("06:06"), `day` on a chart's day axis ("23 Nov"), `dayTime` on an hour axis ("23 Nov, 06:00"). Every
 * style is the same en-GB pattern (day month, 24-hour clock) in the same zone, so pages, charts and
 * the in-app bell read alike (issue 35).
 */
export type TimeStyle = 'datetime' | 'time' | 'day' | 'dayTime';

const STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  datetime: { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { month: 'short', day: '2-digit' },
  dayTime: { month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

/** The dashboard's one time formatter: a time in the organization's time zone (`timeZone`); the ISO text when the zone is unknown. */
export function formatTime(iso: unknown, timeZone: string, style: TimeStyle = 'datetime'): string {
  if (typeof iso !== 'string' && typeof iso !== 'number') return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  try {
    return d.toLocaleString('en-GB', { ...STYLES[style], timeZone });
  } catch {
    return d.toISOString();
  }
}

export function str(value: unknown, fallback = '—'): string {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** `{{name}}` placeholders of a template text, in order of first use, without duplicates. */
export function placeholders(text: string): string[] {
  const seen: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (!seen.includes(m[1]!)) seen.push(m[1]!);
  return seen;
}

/** The text with each placeholder replaced by its sample value (left as is when no value is given). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (all, name: string) => values[name] || all);
}

/** Builds a query string from the set values only. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

const LIST_KEYS = ['items', 'data', 'results', 'rows', 'entries', 'contacts', 'segments', 'campaigns', 'events', 'webhooks',
  'endpoints', 'deliveries', 'invoices', 'approvals', 'tenants', 'recommendations', 'members', 'suppressions'];

/** Lists come back as an array or as `{ items | data | ... }`: take whichever is there ([] otherwise). */
export function asList<T = Record<string, unknown>>(value: unknown): T[] {
  if (Array.isArray(value)) return value as T[];
  if (value && typeof value === 'object') {
    for (const key of LIST_KEYS) {
      const v = (value as Record<string, unknown>)[key];
      if (Array.isArray(v)) return v as T[];
    }
  }
  return [];
}

export interface Condition { field: string; op: string; value: string }
const TEXT_FIELDS = ['firstName', 'lastName', 'phone', 'email', 'countryCode'];

/** The segment builder's state as the API's rule language: `{ all | any: [{ field, op, value }] }` (docs/segments.md). */
export function toRules(match: 'all' | 'any', conditions: Condition[]): Record<string, unknown> {
  const list = conditions.filter((c) => c.value.trim() !== '').map((c) => {
    if (c.field === 'optedOut') return { field: c.field, op: c.op, value: c.value === 'true' };
    if (c.field === 'createdAt') {
      const d = new Date(c.value);
      return { field: c.field, op: c.op, value: Number.isNaN(d.getTime()) ? c.value : d.toISOString() };
    }
    if (TEXT_FIELDS.includes(c.field)) return { field: c.field, op: c.op, value: c.value.split(',').map((s) => s.trim()).filter(Boolean) };
    return { field: c.field, op: c.op, value: c.value.trim() };
  });
  return { [match]: list };
}

export const CHANNEL_NAMES = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE', 'IN_APP'] as const;
type Row = Record<string, unknown>;

/** Day-by-channel chart rows (`{ date, SMS, EMAIL ... }`, oldest first) from wide rows, long rows or per-channel arrays. */
export function toSeries(overview: Row): Array<Record<string, number | string>> {
  const raw = overview['volume'] ?? overview['daily'] ?? overview['series'] ?? overview['days'] ?? overview['timeline'];
  const byDay = new Map<string, Record<string, number | string>>();
  const add = (day: string, channel: string, n: number): void => {
    if (!day || !Number.isFinite(n)) return;
    const key = day.slice(0, 10);
    const row = byDay.get(key) ?? { date: key };
    row[channel] = Number(row[channel] ?? 0) + n;
    byDay.set(key, row);
  };
  const list = Array.isArray(raw) ? raw : asList(raw);
  if (list.length > 0) {
    for (const r of list as Row[]) {
      const day = str(r['date'] ?? r['day'] ?? r['bucket'], '');
      if (typeof r['channel'] === 'string') add(day, r['channel'], Number(r['count'] ?? r['messages'] ?? r['total'] ?? 0));
      else {
        const nested = (r['channels'] ?? r['byChannel'] ?? r) as Row;
        for (const c of CHANNEL_NAMES) if (typeof nested[c] === 'number') add(day, c, nested[c] as number);
      }
    }
  } else if (raw && typeof raw === 'object') {
    for (const [channel, points] of Object.entries(raw as Row)) for (const p of asList<Row>(points)) add(str(p['date'] ?? p['day'], ''), channel, Number(p['count'] ?? p['messages'] ?? 0));
  }
  return [...byDay.values()].sort((a, b) => String(a['date']).localeCompare(String(b['date'])));
}

/** A rate as a percentage: 0.953 and 95.3 both read "95.3%". */
export function percent(value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return '—';
  return `${(n <= 1 ? n * 100 : n).toFixed(1)}%`;
}

export interface ProviderRow { name: string; vendor: string; channel: string; active: boolean }

/** Channels whose every active provider is the local outbox: their live messages never leave the machine. */
export function outboxOnlyChannels(providers: readonly ProviderRow[]): string[] {
  const channels = [...new Set(providers.map((p) => p.channel))];
  return channels.filter((c) => {
    const active = providers.filter((p) => p.channel === c && p.active);
    return active.length > 0 && active.every((p) => p.vendor === 'outbox');
  }).sort();
}

/**
 * Channels with a real vendor and an active outbox behind it: when the vendors fail (degraded,
 * refusing), messages fall over to the outbox and never leave the machine (issue 29).
 */
export function outboxFallbackChannels(providers: readonly ProviderRow[]): string[] {
  const channels = [...new Set(providers.map((p) => p.channel))];
  return channels.filter((c) => {
    const active = providers.filter((p) => p.channel === c && p.active);
    return active.some((p) => p.vendor === 'outbox') && active.some((p) => p.vendor !== 'outbox');
  }).sort();
}

/** A campaign's ETA in words: "under a minute", "about 12 min", "about 3 h 20 min"; "—" when unknown. */
export function etaText(seconds: unknown): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '—';
  if (seconds < 60) return 'under a minute';
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `about ${minutes} min` : `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "1 SMS segment", "2 SMS segments": a count with its noun, plural when not 1. */
export function plural(count: unknown, noun: string, nouns = `${noun}s`): string {
  const n = Number(count);
  return `${str(count)} ${n === 1 ? noun : nouns}`;
}

/** How far `timeZone` is ahead of UTC at `ms` (milliseconds). */
function zoneOffset(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(ms / 1000) * 1000;
}

/**
 * A wall-clock time typed in a `datetime-local` field ("2026-12-24T09:30"), read in the organization's
 * time zone, as an ISO 8601 instant for the API ("2026-12-24T08:30:00.000Z" in Africa/Lagos); null when not a time.
 */
export function zonedToIso(local: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local.trim());
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  try {
    let at = wall - zoneOffset(wall, timeZone);
    at = wall - zoneOffset(at, timeZone); // across a DST change, the offset at the instant itself
    return new Date(at).toISOString();
  } catch {
    return null;
  }
}

const RULE_FIELDS: Record<string, string> = { firstName: 'first name', lastName: 'last name', countryCode: 'country', createdAt: 'added', email: 'email', phone: 'phone', tags: 'tags' };
const RULE_OPS: Record<string, string> = { equals: 'is', contains: 'contains', notContains: 'does not contain', startsWith: 'starts with', before: 'before', after: 'after', exists: 'is set' };

function ruleValue(value: unknown): string {
  const one = (v: unknown): string => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : typeof v === 'string' ? v : JSON.stringify(v));
  if (!Array.isArray(value)) return one(value);
  const parts = value.map(one);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts[parts.length - 1]}`;
}

/**
 * A segment's rules (docs/segments.md: `{ all | any: [...] }` groups, `{ field, op, value }` conditions, or the
 * shorthand object) in words: "phone starts with 024, 054 or 055 and not opted out". Unknown shapes fall back to JSON.
 */
export function describeRules(rules: unknown, depth = 0): string {
  if (!rules || typeof rules !== 'object' || Array.isArray(rules)) return str(rules);
  const r = rules as Record<string, unknown>;
  const group = (list: unknown, joiner: string, empty: string): string => {
    const items = Array.isArray(list) ? list.map((x) => describeRules(x, depth + 1)) : [];
    if (items.length === 0) return empty;
    const text = items.join(joiner);
    return depth > 0 && items.length > 1 ? `(${text})` : text;
  };
  if (Array.isArray(r['all'])) return group(r['all'], ' and ', 'everyone');
  if (Array.isArray(r['any'])) return group(r['any'], ' or ', 'no one');
  if (typeof r['field'] === 'string') {
    const field = r['field']; const op = String(r['op'] ?? 'equals');
    if (field === 'optedOut') return r['value'] === false || r['value'] === 'false' ? 'not opted out' : 'opted out';
    if (field === 'address') return `has ${ruleValue(r['value'])}`;
    const name = field === 'attribute' ? `attribute ${str(r['name'])}` : RULE_FIELDS[field] ?? field;
    return op === 'exists' ? `${name} is set` : `${name} ${RULE_OPS[op] ?? op} ${ruleValue(r['value'])}`;
  }
  const keys = Object.keys(r);
  if (keys.length === 0) return 'everyone';
  return keys.map((k) => (k === 'optedOut' ? (r[k] === false ? 'not opted out' : 'opted out') : `${RULE_FIELDS[k] ?? k} is ${ruleValue(r[k])}`)).join(' and ');
}
