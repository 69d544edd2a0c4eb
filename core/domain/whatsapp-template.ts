/**
 * A WHATSAPP template's Meta template (docs/whatsapp-templates.md): outside the 24-hour customer-service
 * window Meta delivers only templates the business account had approved, so a Nkra WHATSAPP template
 * names one and binds each of its parameters to one of the Nkra template's variables.
 */
export interface MetaTemplateMapping {
  /** The Meta template's name (lowercase letters, digits, underscores), e.g. 'order_shipped'. */
  name: string;
  /** Meta's language code, e.g. 'en_US', 'en', 'fr'. */
  language: string;
  /** In Meta's order: the header's and body's parameters ({{1}}, {{2}} ...), then buttons by index. */
  components: MetaTemplateComponent[];
}

export type MetaTemplateComponent =
  | { type: 'header' | 'body'; parameters: string[] }
  /** A button with a variable: a URL button's suffix ('url', also an authentication template's copy-code button) or a quick reply's payload. */
  | { type: 'button'; subType: 'url' | 'quick_reply'; index: number; parameters: string[] };

/** What Meta says of the mapped template, from the last check against the business account. */
export type MetaTemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED' | 'MISSING' | 'MISMATCH';

export interface MetaTemplateCheck {
  status: MetaTemplateStatus;
  /** Meta's own status word when it has the template (APPROVED, IN_APPEAL ...), else null. */
  metaStatus: string | null;
  /** Why it cannot be sent (missing, parameter counts), or null. */
  detail: string | null;
  /**
   * A template with `parameter_format: NAMED`: Meta's parameter names per component ('header', 'body'),
   * in order, sent as each parameter's `parameter_name`; null for positional ({{1}}, {{2}}) templates.
   */
  parameterNames?: Record<string, string[]> | null;
  checkedAt: Date;
}

/** One of the account's templates as Meta lists it (`GET /{waba-id}/message_templates`). */
export interface MetaTemplateListing {
  name: string;
  language: string;
  status: string;
  /** 'POSITIONAL' (the default) or 'NAMED'. */
  parameterFormat?: string | null;
  components: Array<Record<string, unknown>>;
}

/** The `template` object of a Meta send (API-FORMATS section 6), parameters filled in. */
export interface WhatsappTemplateSend {
  name: string;
  language: { code: string };
  components: Array<{ type: string; sub_type?: string; index?: string; parameters: Array<{ type: 'text'; text: string; parameter_name?: string } | { type: 'payload'; payload: string }> }>;
}

/**
 * Meta's payload for the mapping, each parameter the variable's value (missing ones as ''; preparation
 * checks them first); a NAMED template's header and body parameters carry their `parameter_name`.
 */
export function whatsappTemplateSend(mapping: MetaTemplateMapping, variables: Readonly<Record<string, string>>,
  parameterNames: Readonly<Record<string, string[]>> | null = null): WhatsappTemplateSend {
  const components = mapping.components.filter((c) => c.parameters.length > 0).map((c) => {
    if (c.type !== 'button') {
      const names = parameterNames?.[c.type];
      return { type: c.type, parameters: c.parameters.map((name, i) => ({ type: 'text' as const, ...(names?.[i] ? { parameter_name: names[i] } : {}), text: variables[name] ?? '' })) };
    }
    const parameters = c.parameters.map((name) => (c.subType === 'quick_reply'
      ? { type: 'payload' as const, payload: variables[name] ?? '' } : { type: 'text' as const, text: variables[name] ?? '' }));
    return { type: 'button', sub_type: c.subType, index: String(c.index), parameters };
  });
  return { name: mapping.name, language: { code: mapping.language }, components };
}

/** The variables a mapping reads. */
export function mappedVariables(mapping: MetaTemplateMapping): string[] {
  return [...new Set(mapping.components.flatMap((c) => c.parameters))];
}

/** The distinct `{{1}}` or `{{name}}` placeholders of a text, in order of first appearance. */
function placeholderNames(text: unknown): string[] {
  return typeof text === 'string' ? [...new Set([...text.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]!))] : [];
}

function placeholders(text: unknown): number {
  return placeholderNames(text).length;
}

/** A NAMED template's parameter names of its text header and body. */
function namedParameters(listing: MetaTemplateListing): Record<string, string[]> | null {
  if (String(listing.parameterFormat ?? '').toUpperCase() !== 'NAMED') return null;
  const names: Record<string, string[]> = {};
  for (const component of listing.components) {
    const type = String(component['type'] ?? '').toUpperCase();
    const found = type === 'HEADER' || type === 'BODY' ? placeholderNames(component['text']) : [];
    if (found.length > 0) names[type.toLowerCase()] = found;
  }
  return names;
}

/**
 * How many parameters Meta's template takes per component: 'header', 'body', and 'button:<index>'
 * (a URL button with a variable in its url; a COPY_CODE / OTP copy-code button takes one, sent as a url
 * button's parameter; a quick reply takes a payload when mapped, so it is left out).
 */
export function metaParameterCounts(listing: MetaTemplateListing): Map<string, number> {
  const counts = new Map<string, number>();
  for (const component of listing.components) {
    const type = String(component['type'] ?? '').toUpperCase();
    if (type === 'HEADER' && String(component['format'] ?? 'TEXT').toUpperCase() === 'TEXT') counts.set('header', placeholders(component['text']));
    if (type === 'BODY') counts.set('body', placeholders(component['text']));
    if (type === 'BUTTONS' && Array.isArray(component['buttons'])) {
      (component['buttons'] as Array<Record<string, unknown>>).forEach((button, index) => {
        const kind = String(button['type'] ?? '').toUpperCase();
        if (kind === 'URL') counts.set(`button:${index}`, placeholders(button['url']));
        if (kind === 'COPY_CODE' || (kind === 'OTP' && String(button['otp_type'] ?? '').toUpperCase() === 'COPY_CODE')) counts.set(`button:${index}`, 1);
      });
    }
  }
  return counts;
}

/**
 * The check of a mapping against the account's templates: MISSING when no template has its name and
 * language; MISMATCH when the parameter counts differ (Meta would answer 132000); else Meta's status
 * (APPROVED, PENDING, REJECTED, PAUSED, DISABLED; IN_APPEAL and other words count as PENDING).
 */
export function checkMapping(mapping: MetaTemplateMapping, listings: readonly MetaTemplateListing[], now: Date): MetaTemplateCheck {
  const found = listings.find((l) => l.name === mapping.name && l.language === mapping.language);
  if (!found) {
    const languages = listings.filter((l) => l.name === mapping.name).map((l) => l.language);
    return { status: 'MISSING', metaStatus: null, checkedAt: now,
      detail: languages.length > 0 ? `Meta has ${mapping.name} only in ${languages.join(', ')}, not ${mapping.language}` : `The WhatsApp account has no template named ${mapping.name}` };
  }
  const expected = metaParameterCounts(found);
  const given = new Map(mapping.components.map((c) => [c.type === 'button' ? `button:${c.index}` : c.type, c.parameters.length]));
  const problems = [...new Set([...expected.keys(), ...given.keys()])].sort()
    .filter((key) => (expected.get(key) ?? 0) !== (given.get(key) ?? 0))
    .map((key) => `${key} takes ${expected.get(key) ?? 0} parameter(s), the mapping gives ${given.get(key) ?? 0}`);
  if (problems.length > 0) return { status: 'MISMATCH', metaStatus: found.status, detail: problems.join('; '), checkedAt: now };
  const word = found.status.toUpperCase();
  const status: MetaTemplateStatus = word === 'APPROVED' || word === 'REJECTED' || word === 'PAUSED' || word === 'DISABLED' ? word : 'PENDING';
  return { status, metaStatus: found.status, detail: status === 'APPROVED' ? null : `Meta reports the template as ${found.status}`,
    parameterNames: namedParameters(found), checkedAt: now };
}

export function metaCheckView(check: MetaTemplateCheck | null) {
  return check ? { status: check.status, metaStatus: check.metaStatus, detail: check.detail, checkedAt: check.checkedAt.toISOString() } : null;
}
