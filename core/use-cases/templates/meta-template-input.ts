import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import type { MetaTemplateMapping } from '../../domain/whatsapp-template.ts';

/** Most parameters of one component, and most buttons (Meta's own limits are lower). */
const PARAMETERS_MAX = 20;
const BUTTONS_MAX = 10;

const parameters = v.pipe(v.array(v.pipe(v.string('must be variable names'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100)), 'must be an array of variable names'),
  v.maxLength(PARAMETERS_MAX, `at most ${PARAMETERS_MAX} parameters`));

/**
 * A WHATSAPP template's `metaTemplate` (docs/whatsapp-templates.md): Meta's template name and language
 * code, and per component the Nkra variables filling its parameters in order. At most one header and one
 * body; buttons by index (0-9), each index once.
 */
export const MetaTemplateInput = v.pipe(v.object({
  name: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[a-z0-9_]{1,512}$/, 'must be a Meta template name: lowercase letters, digits and underscores')),
  language: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, 'must be a Meta language code such as en, en_US or pt_BR')),
  components: v.pipe(v.array(v.variant('type', [
    v.object({ type: v.picklist(['header', 'body']), parameters }),
    v.object({
      type: v.literal('button'),
      subType: v.picklist(['url', 'quick_reply'], 'must be url (also a copy-code button) or quick_reply'),
      index: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0), v.maxValue(BUTTONS_MAX - 1)),
      parameters,
    }),
  ], 'type must be header, body or button'), 'must be an array of components'), v.maxLength(BUTTONS_MAX + 2, 'too many components')),
}), v.check((m) => {
  const keys = m.components.map((c) => (c.type === 'button' ? `button:${c.index}` : c.type));
  return new Set(keys).size === keys.length;
}, 'components: each of header, body and button index may appear once'));

/** The mapping, its variables checked against the template's (VALIDATION_ERROR on `metaTemplate` otherwise). */
export function checkedMapping(input: v.InferOutput<typeof MetaTemplateInput>, channel: string, variables: readonly string[]): MetaTemplateMapping {
  if (channel !== 'WHATSAPP') throw invalid('is only for WHATSAPP templates');
  const unknown = [...new Set(input.components.flatMap((c) => c.parameters))].filter((name) => !variables.includes(name));
  if (unknown.length > 0) throw invalid(`parameters must be variables of the template (${variables.join(', ') || 'none'}); unknown: ${unknown.join(', ')}`);
  const order = { header: 0, body: 1, button: 2 } as const;
  const components = [...input.components].sort((a, b) => order[a.type] - order[b.type] || (a.type === 'button' && b.type === 'button' ? a.index - b.index : 0));
  return { name: input.name, language: input.language, components };
}

function invalid(message: string): AppError {
  return new AppError('VALIDATION_ERROR', `metaTemplate: ${message}`, { fieldErrors: { metaTemplate: [message] }, formErrors: [] });
}
