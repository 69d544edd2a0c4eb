import * as v from 'valibot';
import { AppError } from '../errors.ts';
import { issuePath } from '../validation.ts';
import { ATTRIBUTE_NAME, type Contact } from './contact.ts';
import { normalizePhone } from './phone.ts';

/**
 * The segment rule language (docs/segments.md). A rule is a group (`{ all: [...] }`, `{ any: [...] }`,
 * nestable) or a condition `{ field, op, value }`. Adapters compile rules to parameterized SQL; the
 * in-memory adapter evaluates them with {@link matchesRule}. Both follow the same semantics.
 */
export const TEXT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'countryCode'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export const ADDRESS_KINDS = ['phone', 'email', 'fcmToken'] as const;
export type ContactAddressField = (typeof ADDRESS_KINDS)[number];

export type TextCondition = { field: TextField; op: 'equals' | 'contains' | 'startsWith'; value: string[] };
export type Condition =
  | TextCondition
  | { field: 'tags'; op: 'contains' | 'notContains'; value: string }
  | { field: 'createdAt'; op: 'before' | 'after'; value: Date }
  | { field: 'address'; op: 'exists'; value: ContactAddressField }
  | { field: 'optedOut'; op: 'equals'; value: boolean }
  /** A contact attribute (case-sensitive text as stored); `exists` takes no value. */
  | { field: 'attribute'; name: string; op: 'equals' | 'contains' | 'startsWith'; value: string[] }
  | { field: 'attribute'; name: string; op: 'exists' }
  /** The contact's locale, compared case-insensitively ('en' startsWith matches 'en' and 'en-GH'); `exists` false: contacts without one. */
  | { field: 'locale'; op: 'equals' | 'startsWith'; value: string[] }
  | { field: 'locale'; op: 'exists'; value: boolean };
export type SegmentRule = { all: SegmentRule[] } | { any: SegmentRule[] } | Condition;

export const RULE_MAX_DEPTH = 5;
export const RULE_MAX_CONDITIONS = 50;
const VALUE_MAX = 200;

const text = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(VALUE_MAX, `must be at most ${VALUE_MAX} characters`));
const textValues = v.pipe(
  v.union([text, v.pipe(v.array(text, 'must be a string or an array of strings'), v.minLength(1, 'must not be empty'), v.maxLength(50, 'at most 50 values'))],
    'must be a string or an array of strings'),
  v.transform((value) => (Array.isArray(value) ? value : [value])));

const attributeName = v.pipe(v.string('must be a string'), v.regex(ATTRIBUTE_NAME, 'must be an attribute name (a letter, then up to 40 letters, digits and _)'));

const conditionSchema = v.variant('field', [
  v.strictObject({ field: v.picklist(TEXT_FIELDS), op: v.picklist(['equals', 'contains', 'startsWith'], 'must be equals, contains or startsWith'), value: textValues }),
  v.strictObject({ field: v.literal('tags'), op: v.picklist(['contains', 'notContains'], 'must be contains or notContains'), value: v.pipe(text, v.toLowerCase()) }),
  v.strictObject({
    field: v.literal('createdAt'), op: v.picklist(['before', 'after'], 'must be before or after'),
    value: v.pipe(v.string('must be an ISO 8601 date-time'), v.check((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}/.test(s), 'must be an ISO 8601 date-time'),
      v.transform((s) => new Date(s))),
  }),
  v.strictObject({ field: v.literal('address'), op: v.literal('exists', 'must be exists'), value: v.picklist(ADDRESS_KINDS, `must be one of ${ADDRESS_KINDS.join(', ')}`) }),
  v.strictObject({ field: v.literal('optedOut'), op: v.literal('equals', 'must be equals'), value: v.boolean('must be true or false') }),
  v.variant('op', [
    v.strictObject({ field: v.literal('attribute'), name: attributeName, op: v.literal('exists') }),
    v.strictObject({ field: v.literal('attribute'), name: attributeName, op: v.picklist(['equals', 'contains', 'startsWith']), value: textValues }),
  ], 'op must be equals, contains, startsWith or exists'),
  v.variant('op', [
    v.strictObject({ field: v.literal('locale'), op: v.literal('exists'), value: v.boolean('must be true or false') }),
    v.strictObject({ field: v.literal('locale'), op: v.picklist(['equals', 'startsWith']), value: textValues }),
  ], 'op must be equals, startsWith or exists'),
], `field must be one of ${[...TEXT_FIELDS, 'tags', 'createdAt', 'address', 'optedOut', 'attribute', 'locale'].join(', ')}`);

const ruleSchema: v.GenericSchema<unknown, SegmentRule> = v.lazy((input) => {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    if ('all' in input) return v.strictObject({ all: v.array(ruleSchema, 'must be an array of rules') });
    if ('any' in input) return v.strictObject({ any: v.array(ruleSchema, 'must be an array of rules') });
    if ('field' in input) return conditionSchema as v.GenericSchema<unknown, SegmentRule>;
  }
  return v.pipe(v.unknown(), v.check(() => false, 'must be a group ({ "all": [...] } or { "any": [...] }) or a condition ({ "field", "op", "value" })')) as v.GenericSchema<unknown, SegmentRule>;
});

/**
 * Parses an untrusted rule. Errors are VALIDATION_ERROR with `details.fieldErrors[field]` listing
 * "path: message" and `details.path` the first bad rule path (e.g. "rules.all[1].value").
 * Phone values are normalized here (national prefixes like 024 become +23324).
 */
export function parseSegmentRule(raw: unknown, field = 'rules'): SegmentRule {
  const result = v.safeParse(ruleSchema, expandShorthand(raw, field));
  if (!result.success) {
    const messages = result.issues.map((issue) => `${issuePath(issue, field)}: ${issue.message}`);
    throw ruleError(field, issuePath(result.issues[0]!, field), messages);
  }
  let conditions = 0;
  const walk = (rule: SegmentRule, depth: number, path: string): SegmentRule => {
    if (depth > RULE_MAX_DEPTH) throw ruleError(field, path, [`${path}: groups nest at most ${RULE_MAX_DEPTH} deep`]);
    if ('all' in rule) return { all: rule.all.map((r, i) => walk(r, depth + 1, `${path}.all[${i}]`)) };
    if ('any' in rule) return { any: rule.any.map((r, i) => walk(r, depth + 1, `${path}.any[${i}]`)) };
    conditions += 1;
    if (conditions > RULE_MAX_CONDITIONS) throw ruleError(field, path, [`${path}: a rule has at most ${RULE_MAX_CONDITIONS} conditions`]);
    if (rule.field === 'phone') return { ...rule, value: rule.value.map((value, i) => phoneValue(value, rule.op, `${path}.value${rule.value.length > 1 ? `[${i}]` : ''}`, field)) };
    if (rule.field === 'countryCode') return { ...rule, value: rule.value.map((value) => value.toUpperCase()) };
    if (rule.field === 'email') return { ...rule, value: rule.value.map((value) => value.toLowerCase()) };
    if (rule.field === 'locale' && rule.op !== 'exists') return { ...rule, value: rule.value.map((value) => value.toLowerCase()) };
    return rule;
  };
  return walk(result.output, 1, field);
}

/**
 * The spec's shorthand (rules are "an object with free-form keys"): `{ "countryCode": "GH", "tags":
 * ["vip"] }` means every key matches. A field equals its value (an array: any of its values); `tags`
 * match by membership (an array: any of the tags); `optedOut` takes true or false; `address` names a
 * channel address the contact must have; any other key is a contact attribute. `{}` matches every contact. Objects with `all`, `any` or
 * `field` are the full language and pass through unchanged.
 */
function expandShorthand(raw: unknown, field: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || 'all' in raw || 'any' in raw || 'field' in raw) return raw;
  return {
    all: Object.entries(raw).map(([key, value]) => {
      if ((TEXT_FIELDS as readonly string[]).includes(key)) return { field: key, op: 'equals', value };
      if (key === 'tags') {
        const tags = Array.isArray(value) ? value : [value];
        return { any: tags.map((tag) => ({ field: 'tags', op: 'contains', value: tag })) };
      }
      if (key === 'optedOut') return { field: 'optedOut', op: 'equals', value };
      if (key === 'address') return { field: 'address', op: 'exists', value };
      if (key === 'locale') return { field: 'locale', op: 'equals', value };
      // Any other key is a contact attribute ({ "city": "Kumasi" }).
      if (ATTRIBUTE_NAME.test(key)) return { field: 'attribute', name: key, op: 'equals', value };
      const known = [...TEXT_FIELDS, 'tags', 'optedOut', 'address', 'locale'].join(', ');
      throw ruleError(field, `${field}.${key}`, [`${field}.${key}: neither a contact field (${known}) nor an attribute name (a letter, then up to 40 letters, digits and _)`]);
    }),
  };
}

/** Phone values in E.164 terms: a full number is normalized; a prefix "024" (GH national) reads "+23324". */
function phoneValue(value: string, op: TextCondition['op'], path: string, field: string): string {
  const compact = value.replace(/[\s().-]/g, '');
  if (op === 'equals') {
    const phone = normalizePhone(value);
    if (!phone.ok) throw ruleError(field, path, [`${path}: ${phone.reason}`]);
    return phone.phone.e164;
  }
  if (!/^\+?[0-9]+$/.test(compact)) throw ruleError(field, path, [`${path}: must contain only digits and a leading +`]);
  if (op === 'contains') return compact.replace(/^\+/, '');
  if (compact.startsWith('+')) return compact;
  if (compact.startsWith('00')) return `+${compact.slice(2)}`;
  if (compact.startsWith('0')) return `+233${compact.slice(1)}`;
  return `+${compact}`;
}

function ruleError(field: string, path: string, messages: string[]): AppError {
  return new AppError('VALIDATION_ERROR', messages[0] ?? `${path} is invalid`, { fieldErrors: { [field]: messages }, formErrors: [], path });
}

/** Text as compared: names case-insensitively, everything else as stored (already normalized). */
function fieldText(contact: Contact, field: TextField): string | null {
  const value = contact[field];
  return value === null ? null : field === 'firstName' || field === 'lastName' ? value.toLowerCase() : value;
}

/** Evaluates a parsed rule against one contact (the in-memory adapter; SQL adapters compile the same semantics). */
export function matchesRule(contact: Contact, rule: SegmentRule): boolean {
  if ('all' in rule) return rule.all.every((r) => matchesRule(contact, r));
  if ('any' in rule) return rule.any.some((r) => matchesRule(contact, r));
  switch (rule.field) {
    case 'tags': return contact.tags.includes(rule.value) === (rule.op === 'contains');
    case 'createdAt': return rule.op === 'before' ? contact.createdAt < rule.value : contact.createdAt > rule.value;
    case 'address': return contact[rule.value] !== null;
    case 'optedOut': return (contact.optedOutAt !== null) === rule.value;
    case 'locale': {
      const have = contact.locale?.toLowerCase() ?? null;
      if (rule.op === 'exists') return (have !== null) === rule.value;
      return have !== null && rule.value.some((want) => (rule.op === 'equals' ? have === want : have.startsWith(want)));
    }
    case 'attribute': {
      const have = contact.attributes[rule.name];
      if (rule.op === 'exists') return have !== undefined;
      if (have === undefined) return false;
      return rule.value.some((want) => (rule.op === 'equals' ? have === want : rule.op === 'contains' ? have.includes(want) : have.startsWith(want)));
    }
    default: {
      const have = fieldText(contact, rule.field);
      if (have === null) return false;
      return rule.value.some((raw) => {
        const want = rule.field === 'firstName' || rule.field === 'lastName' ? raw.toLowerCase() : raw;
        return rule.op === 'equals' ? have === want : rule.op === 'contains' ? have.includes(want) : have.startsWith(want);
      });
    }
  }
}

/** JSON form of a parsed rule (dates as ISO strings), as stored and shown. */
export function ruleToJson(rule: SegmentRule): unknown {
  if ('all' in rule) return { all: rule.all.map(ruleToJson) };
  if ('any' in rule) return { any: rule.any.map(ruleToJson) };
  if (rule.field === 'createdAt') return { ...rule, value: rule.value.toISOString() };
  return rule;
}

/** The audience of a send: a rule, optionally within a static segment's frozen members. */
export interface Audience {
  rule: SegmentRule;
  /** Only contacts frozen into this static segment. */
  memberOf: string | null;
}
