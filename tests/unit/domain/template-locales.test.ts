import { expect } from 'chai';
import { lookupCandidates, normaliseLocale } from '../../../core/domain/locale.ts';
import { encodingReport } from '../../../core/domain/encoding-report.ts';
import { gsmSuggestion, transliterate } from '../../../core/domain/transliteration.ts';
import { chooseTemplateContent, type TemplateVariant } from '../../../core/domain/template-variant.ts';
import { matchesRule, parseSegmentRule } from '../../../core/domain/segment-rules.ts';
import type { Contact } from '../../../core/domain/contact.ts';

const at = new Date('2026-11-28T08:00:00Z');
const variant = (locale: string, body: string, status: TemplateVariant['status'] = 'APPROVED'): TemplateVariant =>
  ({ locale, body, subject: null, status, reviewComment: null, approvalRequestId: null, createdAt: at, updatedAt: at });
const template = {
  body: 'Your order is ready', subject: null, language: 'en',
  variants: [variant('tw', 'Wo order no awie'), variant('fr-CI', 'Votre commande est prête'), variant('ee', 'Wò order la sɔ', 'PENDING_APPROVAL'), variant('en-GH', 'Your order is ready, chale')],
};

describe('domain: template locales', () => {
  describe('normaliseLocale', () => {
    it('accepts language-only codes and normalises case without aliasing the tag', () => {
      expect(['tw', 'ee', 'gaa', 'ha', 'fr', 'EN-gh', 'tw-gh', 'zh-hant-tw', 'yo'].map(normaliseLocale))
        .to.deep.equal(['tw', 'ee', 'gaa', 'ha', 'fr', 'en-GH', 'tw-GH', 'zh-Hant-TW', 'yo']);
    });

    it('refuses what is not a BCP 47 tag', () => {
      for (const bad of ['', 'e', 'english!', 'x-foo', 'en_GH', 'en-u-ca-x', 'abcd', `en-${'a'.repeat(40)}`]) expect(normaliseLocale(bad), bad).to.equal(null);
    });

    it('looks up from the most specific tag to the language', () => {
      expect(lookupCandidates('en-Latn-GH')).to.deep.equal(['en-Latn-GH', 'en-Latn', 'en']);
      expect(lookupCandidates('tw')).to.deep.equal(['tw']);
    });
  });

  describe('chooseTemplateContent (the fallback chain)', () => {
    it('takes the first preference the template covers: request, then contact, then organization', () => {
      expect(chooseTemplateContent(template, ['tw', 'fr', 'en'])).to.include({ locale: 'tw', body: 'Wo order no awie', variant: true });
      expect(chooseTemplateContent(template, [null, 'fr', 'en'])).to.include({ locale: 'fr-CI', variant: true });
      expect(chooseTemplateContent(template, [undefined, 'de', 'tw'])).to.include({ locale: 'tw' });
    });

    it('falls back to the template\'s own body when nothing matches', () => {
      expect(chooseTemplateContent(template, ['de', 'ha'])).to.deep.equal({ locale: 'en', body: 'Your order is ready', subject: null, variant: false });
      expect(chooseTemplateContent(template, [])).to.include({ locale: 'en', variant: false });
    });

    it('never uses a variant that is not approved', () => {
      expect(chooseTemplateContent(template, ['ee', 'tw'])).to.include({ locale: 'tw' });
    });

    it('matches case-insensitively and by truncation before language', () => {
      expect(chooseTemplateContent(template, ['EN-gh'])).to.include({ locale: 'en-GH', variant: true });
      expect(chooseTemplateContent(template, ['tw-GH'])).to.include({ locale: 'tw' });
      expect(chooseTemplateContent(template, ['en-NG'])).to.include({ locale: 'en', variant: false }); // en-NG -> en, the template's own language
    });
  });

  describe('transliteration', () => {
    it('suggests GSM-7 spellings of Ghanaian letters, quotes and dashes', () => {
      expect(transliterate('Ɛyɛ ɔdɔ ŋkɔmɔ — “Ŋ” ‘Ɔ’')).to.equal('Eye odo ngkomo - "Ng" \'O\'');
      expect(gsmSuggestion('ɖ')).to.equal('d');
      expect(gsmSuggestion('ẹ')).to.equal('e');
      expect(gsmSuggestion('é')).to.equal('é'); // already GSM-7
    });

    it('offers nothing for characters without a safe spelling', () => {
      expect(gsmSuggestion('😀')).to.equal(null);
      expect(gsmSuggestion('₵')).to.equal(null);
      expect(transliterate('₵5 ɛ')).to.equal('₵5 e');
    });
  });

  describe('encodingReport', () => {
    it('points at the characters forcing UCS-2 by UTF-16 and code point index', () => {
      const report = encodingReport('Hi 😀 ɛ');
      expect(report).to.deep.include({ encoding: 'UCS-2', segments: 1, ucs2CharacterCount: 2 });
      expect(report.ucs2Characters).to.deep.equal([
        { index: 3, codePointIndex: 3, char: '😀', codePoint: 'U+1F600' },
        { index: 6, codePointIndex: 5, char: 'ɛ', codePoint: 'U+025B' },
      ]);
      expect(report).to.not.have.property('transliteration');
    });

    it('adds a suggestion only when asked, and says when it is still UCS-2', () => {
      const twi = `Ɛyɛ ${'ɔ'.repeat(80)}`;
      const report = encodingReport(twi, { suggest: true });
      expect(report).to.deep.include({ encoding: 'UCS-2', segments: 2 });
      expect(report.ucs2Characters[0]).to.include({ char: 'Ɛ', suggestion: 'E' });
      expect(report.transliteration).to.deep.equal({ text: `Eye ${'o'.repeat(80)}`, encoding: 'GSM-7', segments: 1, characters: 84, complete: true });
      expect(encodingReport('😀 ɛ', { suggest: true }).transliteration).to.include({ text: '😀 e', encoding: 'UCS-2', complete: false });
      expect(encodingReport('plain', { suggest: true }).transliteration).to.equal(null);
    });
  });

  describe('segment rules on locale', () => {
    const contact = (locale: string | null) => ({ locale, tags: [], attributes: {} }) as unknown as Contact;
    it('filters by locale (equals, startsWith, exists) case-insensitively, with the shorthand', () => {
      expect(matchesRule(contact('en-GH'), parseSegmentRule({ locale: 'EN-gh' }))).to.equal(true);
      expect(matchesRule(contact('en-GH'), parseSegmentRule({ field: 'locale', op: 'startsWith', value: 'en' }))).to.equal(true);
      expect(matchesRule(contact('tw'), parseSegmentRule({ locale: ['ee', 'gaa'] }))).to.equal(false);
      expect(matchesRule(contact(null), parseSegmentRule({ field: 'locale', op: 'exists', value: false }))).to.equal(true);
      expect(matchesRule(contact('tw'), parseSegmentRule({ field: 'locale', op: 'exists', value: false }))).to.equal(false);
      expect(() => parseSegmentRule({ field: 'locale', op: 'contains', value: 'x' })).to.throw(/rules/);
    });
  });
});
