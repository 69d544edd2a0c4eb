import * as v from 'valibot';
import { AppError, type ValidationDetails } from '../../errors.ts';
import { CHANNELS, TEMPLATE_CATEGORIES, type Channel, type TemplateCategory } from '../../domain/channel.ts';
import { costPreview, type PricingRule } from '../../domain/pricing.ts';
import { premiumRateReason } from '../../domain/phone.ts';
import { networkByPrefix, type MobileNetwork } from '../../domain/mobile-network.ts';
import { normalizeRecipient } from '../../domain/recipient.ts';
import { renderTemplate } from '../../domain/template-rendering.ts';
import type { Template } from '../../domain/template.ts';
import { chooseTemplateContent } from '../../domain/template-variant.ts';
import type { SmsEncoding } from '../../domain/sms-segments.ts';
import type { PushContent } from '../../domain/push-content.ts';
import { mappedVariables, whatsappTemplateSend, type WhatsappTemplateSend } from '../../domain/whatsapp-template.ts';
import { checkPushContent, type PushFields } from './push-fields.ts';
import { withOptOutLink, type OptOutLinks } from '../consent/opt-out-link-text.ts';
import { trackBody, type LinkTrackingOption } from '../links/link-tracking.ts';
import type { TrackedLinkDraft } from '../../domain/tracked-links.ts';

/** Longest body accepted: 1,600 characters for text channels (10 SMS segments), 200 KB for email. */
export const TEXT_BODY_MAX = 1_600;
export const EMAIL_BODY_MAX = 200_000;
export const SUBJECT_MAX = 998;

/** A send's own category (docs/consent.md): what kind of message it is when no template says. */
export const categorySchema = v.optional(v.picklist(TEMPLATE_CATEGORIES, `must be one of ${TEMPLATE_CATEGORIES.join(', ')}`));
export const channelSchema = v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`);
/** Template variables: an object of string to string (an array, which valibot's record would take, is refused). */
export const variablesSchema = v.optional(v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'must be an object of string to string'),
  v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.string('values must be strings'), v.maxLength(2_000))),
  v.check((record) => Object.keys(record).length <= 100, 'at most 100 variables')));
export const countryCodeSchema = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 country code'));
export const idempotencyKeySchema = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters')));

/** One message as asked for, after schema validation. */
export interface MessageDraft extends PushFields {
  channel: Channel;
  to: string;
  body?: string | undefined;
  subject?: string | undefined;
  templateId?: string | undefined;
  variables?: Record<string, string> | undefined;
  senderId?: string | undefined;
  countryCode: string;
  category?: TemplateCategory | undefined;
  sendAt?: Date | undefined;
  /**
   * Locales to render the template in, most important first (a send's or trigger's `locale`, the
   * contact's, the organization's default): the first the template covers wins, else its own body
   * (domain/template-variant.ts chooseTemplateContent).
   */
  locales?: ReadonlyArray<string | null | undefined> | undefined;
}

/** A message ready to screen, charge and record. */
export interface PreparedMessage {
  channel: Channel;
  recipient: string;
  country: string | null;
  /** The recipient's mobile network (docs/routing.md): it prices the message and routes it; null when unknown. */
  network?: string | null;
  premiumRate: string | null;
  subject: string | null;
  body: string;
  /** The encrypted text actually sent when `subject`/`body` are masked (a passcode; Message.sealedContent). */
  sealedContent?: string | undefined;
  /** PUSH only (image, link, data); null otherwise. */
  push: PushContent | null;
  /**
   * WHATSAPP with a template mapped to a Meta template (docs/whatsapp-templates.md): the Meta payload
   * (a passcode's masked; the clear one sealed), sent only outside the 24-hour window, and whether
   * the last check found it approved. Absent or null: text.
   */
  metaTemplate?: PreparedMetaTemplate | null;
  templateId: string | null;
  /** The template locale the text was rendered in; null without a template (or when the request's own body replaced its text). */
  locale?: string | null;
  /** The template's category, or the send's; TRANSACTIONAL when neither says (docs/consent.md). */
  category: TemplateCategory;
  /** The token of the opt-out link in the body (recorded with the message), or null. */
  optOutToken: string | null;
  /** The body's tracked short links (docs/links.md), recorded with the message; absent or empty: none. */
  trackedLinks?: TrackedLinkDraft[] | undefined;
  /** Not before this time (`sendAt`, or the next send window): the message is SCHEDULED until then. Null: now. */
  sendAt: Date | null;
  senderId: string | null;
  segments: number;
  encoding: SmsEncoding | null;
  price: number;
}

export interface PreparedMetaTemplate {
  send: WhatsappTemplateSend;
  approved: boolean;
  /** The last check's status ('UNCHECKED' before any). */
  status: string;
  /** Why it may not be sent outside the window (for the error), or ''. */
  why: string;
}

/** The Meta template a WHATSAPP message of `template` goes as outside the window, or null when the template maps none. */
export function preparedMetaTemplate(template: Template | null, variables: Readonly<Record<string, string>>): PreparedMetaTemplate | null {
  if (!template?.metaTemplate || template.channel !== 'WHATSAPP') return null;
  const check = template.metaCheck ?? null;
  return {
    send: whatsappTemplateSend(template.metaTemplate, variables, check?.parameterNames ?? null),
    approved: check?.status === 'APPROVED', status: check?.status ?? 'UNCHECKED',
    why: check ? `${check.status}${check.detail ? ` (${check.detail})` : ''}, checked ${check.checkedAt.toISOString()}` : 'it was never checked against the Meta account (POST /templates/{id}/whatsapp-check)',
  };
}

/**
 * Resolves the template, renders the body, normalizes the recipient and prices the message. Every
 * problem is a VALIDATION_ERROR naming the field (or TEMPLATE_NOT_APPROVED); `field` prefixes the
 * names for bulk items ("messages[3].to").
 */
export function prepareMessage(draft: MessageDraft, template: Template | null, rules: readonly PricingRule[], field = '',
  options: { subjectFromBody?: boolean; optOut?: OptOutLinks | undefined; networks?: NetworkKnowledge | undefined; links?: LinkTrackingOption | undefined } = {}): PreparedMessage {
  if (draft.templateId && !template) throw invalid(`${field}templateId`, 'template not found');
  if (template) {
    if (template.channel !== draft.channel) throw invalid(`${field}templateId`, `template is for ${template.channel}, not ${draft.channel}`);
    if (template.status !== 'APPROVED') {
      throw new AppError('TEMPLATE_NOT_APPROVED', template.status === 'REJECTED' ? 'The template was rejected and cannot be used'
        : 'The template is waiting for approval and cannot be used yet', { templateId: template.id, status: template.status });
    }
  }
  const content = template ? chooseTemplateContent(template, draft.locales ?? []) : null;
  const written = draft.body ?? content?.body;
  if (written === undefined || written.trim() === '') throw invalid(`${field}body`, 'body is required when no templateId is given');
  const recipient = normalizeRecipient(draft.channel, draft.to, draft.countryCode);
  if (!recipient.ok) throw invalid(`${field}to`, `to ${recipient.reason}`);
  const category = draft.category ?? template?.category ?? 'TRANSACTIONAL';
  const { source, variables, token } = withOptOutLink(written, draft.variables ?? {}, draft.channel, category,
    options.optOut?.linkFor(draft.channel, recipient.recipient) ?? null);
  const rendered = renderTemplate(source, variables, draft.channel === 'EMAIL' ? 'html' : 'text');
  if (!rendered.ok) throw invalid(`${field}variables`, `missing template variable${rendered.missing.length > 1 ? 's' : ''}: ${rendered.missing.join(', ')}`);
  const max = draft.channel === 'EMAIL' ? EMAIL_BODY_MAX : TEXT_BODY_MAX;
  if (rendered.text.length > max) throw invalid(`${field}body`, `body must be at most ${max} characters after rendering`);
  const tracked = trackBody(rendered.text, draft.channel, template?.id ?? null, options.links);

  let subject: string | null = null;
  if (draft.channel === 'EMAIL') {
    const rawSubject = draft.subject?.trim() ? draft.subject : content?.subject ?? (options.subjectFromBody ? subjectFromBody(rendered.text) : undefined);
    if (!rawSubject?.trim()) throw invalid(`${field}subject`, 'subject is required for EMAIL (or a template with a subject)');
    const renderedSubject = renderTemplate(rawSubject, draft.variables ?? {}, 'text');
    if (!renderedSubject.ok) throw invalid(`${field}variables`, `missing template variable: ${renderedSubject.missing.join(', ')}`);
    if (renderedSubject.text.length > SUBJECT_MAX) throw invalid(`${field}subject`, `subject must be at most ${SUBJECT_MAX} characters`);
    subject = renderedSubject.text;
  } else if (draft.channel === 'IN_APP' || draft.channel === 'PUSH') {
    // The bell's title (docs/inbox.md) or the notification's title: optional, from the request or the template.
    const rawSubject = draft.subject?.trim() ? draft.subject : content?.subject;
    if (rawSubject?.trim()) {
      const renderedSubject = renderTemplate(rawSubject, draft.variables ?? {}, 'text');
      if (!renderedSubject.ok) throw invalid(`${field}variables`, `missing template variable: ${renderedSubject.missing.join(', ')}`);
      if (renderedSubject.text.length > SUBJECT_MAX) throw invalid(`${field}subject`, `subject must be at most ${SUBJECT_MAX} characters`);
      subject = renderedSubject.text;
    }
  }

  const push = checkPushContent(draft, subject, tracked.body, field, recipient.pushTokenKind);
  // Meta refuses an empty template parameter (132000 family): say so before charging.
  const blank = draft.channel === 'WHATSAPP' && template?.metaTemplate
    ? mappedVariables(template.metaTemplate).filter((name) => !(draft.variables?.[name] ?? '').trim()) : [];
  if (blank.length > 0) throw invalid(`${field}variables`, `the WhatsApp template's Meta parameters must not be empty: ${blank.join(', ')}`);

  // An in-memory answer (prefix, or a correction this process holds): never I/O per message (docs/routing.md).
  const network = recipient.phone ? networkOf(options.networks, recipient.recipient, recipient.country) : null;
  const preview = costPreview(rules, draft.channel, recipient.country, tracked.body, network);
  if (!preview) throw new AppError('INTERNAL_ERROR', `no pricing rule for ${draft.channel}`);
  return {
    channel: draft.channel, recipient: recipient.recipient, country: recipient.country, network,
    premiumRate: recipient.phone ? premiumRateReason(recipient.phone) : null,
    subject, body: tracked.body, push, templateId: template?.id ?? null, category, optOutToken: token,
    ...(content && draft.body === undefined ? { locale: content.locale } : {}),
    ...(tracked.links.length > 0 ? { trackedLinks: tracked.links } : {}),
    ...(draft.channel === 'WHATSAPP' && template?.metaTemplate ? { metaTemplate: preparedMetaTemplate(template, draft.variables ?? {}) } : {}),
    sendAt: draft.sendAt ?? null, senderId: draft.senderId ?? null,
    segments: preview.segments, encoding: preview.encoding, price: preview.price,
  };
}

/** Longest default subject: RFC 5322's recommended line length. */
const DEFAULT_SUBJECT_MAX = 78;

/**
 * The subject of a bulk EMAIL item that names none (the spec's bulk item has no `subject` field) and
 * has no template subject: the body's first non-empty line as plain text, cut at 78 characters on a
 * word boundary with an ellipsis (docs/messaging-rules.md).
 */
export function subjectFromBody(body: string): string {
  const line = body.replace(/<[^>]*>/g, ' ').split(/\r?\n/).map((l) => l.replace(/\s+/g, ' ').trim()).find((l) => l !== '') ?? '';
  if (line.length <= DEFAULT_SUBJECT_MAX) return line;
  const cut = line.slice(0, DEFAULT_SUBJECT_MAX - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/** What prepareMessage asks about a number's network: NumberIntelligence.known (prefix tables plus corrections). */
export interface NetworkKnowledge { known(e164: string): MobileNetwork | null }

/** The recipient's network when it is in the number's own country; the prefix tables without `networks`. */
function networkOf(networks: NetworkKnowledge | undefined, e164: string, country: string | null): string | null {
  const known = networks ? networks.known(e164) : networkByPrefix(e164);
  return known && known.country === country ? known.network : null;
}

function invalid(field: string, message: string): AppError {
  const details: ValidationDetails = { fieldErrors: { [field]: [message] }, formErrors: [] };
  return new AppError('VALIDATION_ERROR', message, { ...details });
}
