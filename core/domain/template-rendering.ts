/**
 * Template placeholders: `{{ name }}` with optional spaces inside the braces; a name is a letter
 * or underscore followed by letters, digits, underscores and dots ('customer.first_name').
 * Variables are a flat object of strings (spec: "object of string to string"), so a dotted name
 * is looked up as one literal key, not as a path.
 * Anything else in braces ('{{', '{{ 1st }}', '{{ }}', '{ name }') is not a placeholder and is
 * left exactly as written.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

export type RenderMode = 'text' | 'html';

export type RenderResult =
  | { ok: true; text: string }
  | { ok: false; missing: string[] };

/** The placeholder names in a body, each once, in order of first appearance. */
export function extractVariables(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(PLACEHOLDER)) names.add(match[1] ?? '');
  return [...names];
}

/**
 * Fills the placeholders of `body` from `variables`.
 *
 * - A placeholder without a value is a failure naming it, never a blank in a customer's message.
 *   A value that is empty or only whitespace counts as missing for the same reason.
 *   Only the object's own keys count ('constructor' or '__proto__' are not inherited values).
 * - Substitution is one pass over the template: a value containing '{{ x }}' is inserted as
 *   written and never rendered itself, so a customer's name cannot inject template syntax.
 * - 'html' escapes & < > " ' in the values (never in the template, which its author wrote as
 *   HTML); 'text' inserts values verbatim (SMS, WhatsApp, push, voice, plain-text email).
 */
export function renderTemplate(body: string, variables: Readonly<Record<string, string>>, mode: RenderMode): RenderResult {
  const missing = extractVariables(body).filter((name) => valueOf(variables, name) === null);
  if (missing.length > 0) return { ok: false, missing };
  const text = body.replace(PLACEHOLDER, (_placeholder, name: string) => {
    const value = valueOf(variables, name) ?? '';
    return mode === 'html' ? escapeHtml(value) : value;
  });
  return { ok: true, text };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function valueOf(variables: Readonly<Record<string, string>>, name: string): string | null {
  if (!Object.hasOwn(variables, name)) return null;
  const value: unknown = variables[name];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}
