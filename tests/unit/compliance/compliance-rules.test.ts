import { expect } from 'chai';
import { APPROVAL_THRESHOLD, checkCompliance } from '../../../core/domain/compliance.ts';
import type { TemplateCategory } from '../../../core/domain/channel.ts';
import { COMMON_RULES, RULES_BY_LANGUAGE } from '../../../core/domain/compliance-rules/index.ts';

interface Case { text: string; category?: TemplateCategory; matched?: string }
type Table = Record<string, { hits: Case[]; nearMisses: Case[] }>;

/**
 * For every rule: messages that must trigger it (hits) and messages that look close but must not
 * (near-misses). A rule without both fails the last test.
 */
const EN_TABLE: Table = {
  'spam.prize': {
    hits: [{ text: 'Congratulations, you have won GHS 5,000!', matched: 'you have won' }, { text: "You've won an iPhone" }, { text: 'Claim your prize at the office' }],
    nearMisses: [{ text: 'Our team has won the award for best service' }, { text: 'Prize draw results are on our website' }],
  },
  'spam.money-promise': {
    hits: [{ text: 'Double your money in 7 days' }, { text: 'It is 100% FREE to join', matched: '100% FREE' }, { text: 'A risk-free offer' }],
    nearMisses: [{ text: 'Delivery is free for orders above GHS 200' }, { text: 'Your money was received' }],
  },
  'spam.pressure': {
    hits: [{ text: 'Act now before prices rise' }, { text: 'Last chance to register' }],
    nearMisses: [{ text: 'Now open: our new branch in Kumasi' }, { text: 'The act was passed by parliament' }],
  },
  'spam.shouting': {
    hits: [{ text: 'Sale!!! Today only' }, { text: 'BIG SALE THIS WEEKEND ONLY at the mall' }],
    nearMisses: [{ text: 'Reply STOP to opt out. MTN and GCB customers welcome!' }, { text: 'Sale today! Come early.' }],
  },
  'phishing.credential-request': {
    hits: [
      { text: 'Please send your PIN to confirm the transfer', matched: 'send your PIN' },
      { text: 'Reply with your MoMo PIN to receive the refund' },
      { text: 'Verify your password at our office' },
      { text: 'Kindly share the OTP we sent you' },
    ],
    nearMisses: [
      { text: 'Never share your PIN with anyone, not even our staff' },
      { text: 'Your OTP is 482913. Do not share it.' },
      { text: 'Your password was changed. If this was not you, call 0302 000 000' },
      { text: 'Send us your feedback about our new app' },
    ],
  },
  'phishing.urgency-link': {
    hits: [
      { text: 'Your account will be suspended. Verify at http://secure-login.example.com today' },
      { text: 'URGENT: update your details www.mtn-update.xyz' },
      { text: 'Final notice: pay at pay-now.site/ghana' },
    ],
    nearMisses: [
      { text: 'Urgent: the clinic is closed today. Call us instead.' },
      { text: 'See our new menu at https://kente.example.com' },
    ],
  },
  'phishing.url-shortener': {
    hits: [{ text: 'Details: bit.ly/3xYz', matched: 'bit.ly' }, { text: 'Open https://tinyurl.com/abc now' }, { text: 'See t.co/xyz' }],
    nearMisses: [{ text: 'Visit rabbit.ly/carrots for more' }, { text: 'A bit. Lying down helps.' }, { text: 'See https://example.com/bit.ly-guide' }],
  },
  'phishing.lookalike-brand': {
    hits: [
      { text: 'Your MTN M0M0 wallet is locked', matched: 'M0M0' },
      { text: 'Ec0bank alert: debit of GHS 500', matched: 'Ec0bank' },
      { text: 'Ecobnak: your card is blocked', matched: 'Ecobnak' },
      { text: 'Vodafon Cash reversal pending', matched: 'Vodafon' },
      { text: 'Stanbik bank notice' },
    ],
    nearMisses: [
      { text: 'Pay with MTN MoMo or Telecel Cash' },
      { text: 'ECOBANK customers get 10% off' },
      { text: 'The economy is growing' },
      { text: 'Call 0244 123 456 for 24/7 support' },
      { text: 'Infidelity is the theme of the film' },
    ],
  },
  'health.diagnosis': {
    hits: [{ text: 'Your HIV test is ready', matched: 'HIV' }, { text: 'STI screening results' }],
    nearMisses: [{ text: 'New hearing aids in stock' }, { text: 'Visit the history museum' }, { text: 'Our stipend arrives Friday' }],
  },
  'health.sensitive-data': {
    hits: [{ text: 'You tested positive for malaria', matched: 'tested positive' }, { text: 'You were diagnosed with hepatitis B' }, { text: 'Your viral load is low' }],
    nearMisses: [{ text: 'Your appointment is on Monday at 9am' }, { text: 'Our new test centre opens in Tema' }],
  },
  'health.record-identifier': {
    hits: [{ text: 'Bring your NHIS number to the clinic' }, { text: 'Patient ID 4471 is ready for pickup' }],
    nearMisses: [{ text: 'Be patient, your order is on the way' }, { text: 'Bring your Ghana Card' }],
  },
  'opt-out.missing': {
    hits: [{ text: 'Big sale this weekend at Accra Mall', category: 'MARKETING', matched: '' }, { text: 'Our bus stop at Circle has moved', category: 'MARKETING' }],
    nearMisses: [
      { text: 'Big sale this weekend. Reply STOP to opt out', category: 'MARKETING' },
      { text: 'Sale this weekend. Unsubscribe: kente.example.com/u', category: 'MARKETING' },
      { text: 'Your order has shipped', category: 'TRANSACTIONAL' },
    ],
  },
};

/** The French list (fr.ts) plus the common rules, checked with language 'fr'. */
const FR_TABLE: Table = {
  'spam.prize': {
    hits: [{ text: 'Félicitations, vous avez gagné 500 000 FCFA', matched: 'vous avez gagné' }, { text: 'Reclamez votre cadeau aujourd\'hui' }],
    nearMisses: [{ text: 'Notre équipe a gagné le prix du meilleur service' }, { text: 'Gagnez du temps avec notre application' }],
  },
  'phishing.credential-request': {
    hits: [{ text: 'Envoyez votre code PIN pour recevoir le remboursement', matched: 'Envoyez votre code PIN' }, { text: 'Confirmez votre mot de passe ici' }],
    nearMisses: [{ text: 'Ne partagez jamais votre code PIN' }, { text: "N'envoyez jamais votre mot de passe" }, { text: 'Votre code OTP est 4821' }],
  },
  'phishing.urgency-link': {
    hits: [{ text: 'Votre compte sera suspendu. Vérifiez sur http://secure-momo.example.com' }, { text: 'URGENT : mettez à jour www.banque-verif.xyz' }],
    nearMisses: [{ text: 'Urgent : la clinique est fermée aujourd\'hui' }, { text: 'Découvrez notre menu sur https://kente.example.com' }],
  },
  'health.sensitive-data': {
    hits: [{ text: 'Votre test VIH est prêt', matched: 'VIH' }, { text: 'Vous êtes séropositive' }, { text: 'Votre charge virale est basse' }],
    nearMisses: [{ text: 'Votre rendez-vous est lundi à 9 h' }, { text: 'Venez vite au centre' }],
  },
  'opt-out.missing': {
    hits: [{ text: 'Grande promo ce week-end à Abidjan', category: 'MARKETING', matched: '' }, { text: 'Arrêt de bus déplacé, promo au magasin', category: 'MARKETING' }],
    nearMisses: [
      { text: 'Grande promo. Répondez STOP pour ne plus recevoir nos messages', category: 'MARKETING' },
      { text: 'Promo ! Pour vous désabonner : kente.example.com/d', category: 'MARKETING' },
      { text: 'STOP au 7070', category: 'MARKETING' },
    ],
  },
  'phishing.url-shortener': { hits: [{ text: 'Détails : bit.ly/3xYz' }], nearMisses: [{ text: 'Un peu de patience' }] },
  'phishing.lookalike-brand': { hits: [{ text: 'Votre compte M0M0 est bloqué', matched: 'M0M0' }], nearMisses: [{ text: 'Payez avec MTN MoMo' }] },
};

const TABLES: Record<string, Table> = { en: EN_TABLE, fr: FR_TABLE };

const ALL_RULES = [...COMMON_RULES, ...Object.values(RULES_BY_LANGUAGE).flat()];

function issueFor(ruleId: string, c: Case, language: string) {
  return checkCompliance(c.text, c.category ?? 'TRANSACTIONAL', [language]).issues.find((issue) => issue.ruleId === ruleId);
}

describe('compliance rules: hits and near-misses', () => {
  for (const [language, table] of Object.entries(TABLES)) {
    for (const [ruleId, { hits, nearMisses }] of Object.entries(table)) {
      describe(`${language} ${ruleId}`, () => {
        for (const c of hits) {
          it(`flags "${c.text}"`, () => {
            const issue = issueFor(ruleId, c, language);
            expect(issue, `${ruleId} should flag: ${c.text}`).to.not.equal(undefined);
            if (c.matched !== undefined) expect(issue!.matchedText).to.equal(c.matched);
            expect(issue!.explanation).to.be.a('string').that.is.not.empty;
            expect(issue!.suggestion).to.be.a('string').that.is.not.empty;
          });
        }
        for (const c of nearMisses) {
          it(`does not flag "${c.text}"`, () => {
            expect(issueFor(ruleId, c, language), `${ruleId} should not flag: ${c.text}`).to.equal(undefined);
          });
        }
      });
    }
  }

  it('has at least one hit and one near-miss for every rule of every language list (and the common rules)', () => {
    expect(Object.keys(TABLES).sort()).to.deep.equal(Object.keys(RULES_BY_LANGUAGE).sort());
    for (const [language, rules] of Object.entries(RULES_BY_LANGUAGE)) {
      for (const rule of [...COMMON_RULES, ...rules]) {
        expect(TABLES[language]![rule.id]?.hits.length ?? 0, `${language} ${rule.id}: add hits`).to.be.greaterThan(0);
        expect(TABLES[language]![rule.id]?.nearMisses.length ?? 0, `${language} ${rule.id}: add near-misses`).to.be.greaterThan(0);
      }
    }
  });

  it('gives rule ids that are unique within a list and prefixed by their family', () => {
    for (const rules of Object.values(RULES_BY_LANGUAGE)) {
      const ids = [...COMMON_RULES, ...rules].map((r) => r.id);
      expect(new Set(ids).size).to.equal(ids.length);
    }
    for (const rule of ALL_RULES) expect(rule.id.startsWith(`${rule.family}.`), rule.id).to.equal(true);
  });
});

describe('checkCompliance scoring', () => {
  it('scores a clean transactional message 0 without approval', () => {
    expect(checkCompliance('Your order 1234 has shipped.', 'TRANSACTIONAL')).to.deep.equal({ riskScore: 0, issues: [], requiresApproval: false, category: 'TRANSACTIONAL' });
  });

  it('defaults to MARKETING, where a missing opt-out alone stays under the threshold', () => {
    const result = checkCompliance('New arrivals at our Osu shop');
    expect(result.category).to.equal('MARKETING');
    expect(result.issues.map((i) => i.ruleId)).to.deep.equal(['opt-out.missing']);
    expect(result.riskScore).to.equal(10);
    expect(result.requiresApproval).to.equal(false);
  });

  it(`requires approval at ${APPROVAL_THRESHOLD}: a spam phrase plus a missing opt-out`, () => {
    const result = checkCompliance('You have won a free bag at our shop', 'MARKETING');
    expect(result.riskScore).to.equal(30);
    expect(result.requiresApproval).to.equal(true);
  });

  it('caps the score at 100', () => {
    const result = checkCompliance('URGENT!!! You have won. Send your PIN to claim at bit.ly/x or your M0M0 will be blocked. HIV test ready', 'MARKETING');
    expect(result.riskScore).to.equal(100);
    expect(result.issues.length).to.be.greaterThan(5);
  });

  it('reports a rule once when two languages both have it, and accepts an opt-out in either language', () => {
    const both = checkCompliance('You have won! Vous avez gagné ! Répondez STOP', 'MARKETING', ['en', 'fr']);
    expect(both.issues.map((i) => i.ruleId)).to.deep.equal(['spam.prize']);
    expect(checkCompliance('Promo', 'MARKETING', ['en', 'fr']).issues.map((i) => i.ruleId)).to.deep.equal(['opt-out.missing']);
  });

  it('reads a language tag by its primary subtag (fr-CI is French)', () => {
    expect(checkCompliance('Vous avez gagné', 'TRANSACTIONAL', ['fr-CI']).issues.map((i) => i.ruleId)).to.deep.equal(['spam.prize']);
  });

  it('checks a language without its own list with the English rules', () => {
    expect(checkCompliance('Send your PIN now', 'TRANSACTIONAL', ['ak']).issues.map((i) => i.ruleId)).to.include('phishing.credential-request');
  });
});
