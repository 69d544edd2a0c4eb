import { LINK } from './common.ts';
import type { ComplianceRule } from './types.ts';

/**
 * French rules (Côte d'Ivoire, Togo, Burkina Faso, Senegal ... senders), a first list with the same
 * ids as en.ts where the rule is the same. Phrases are written with and without accents, which
 * senders often drop. Explanations stay in English (the dashboard's language); suggestions quote
 * French wording.
 */
export const FR_RULES: readonly ComplianceRule[] = [
  {
    id: 'spam.prize', family: 'spam', severity: 'medium',
    matcher: { kind: 'phrases', phrases: [
      'vous avez gagné', 'vous avez gagne', 'tu as gagné', 'tu as gagne', 'réclamez votre prix', 'reclamez votre prix',
      'réclamez votre cadeau', 'reclamez votre cadeau', 'heureux gagnant', 'vous avez été sélectionné', 'vous avez ete selectionne',
    ] },
    explanation: 'Prize-winning wording is typical of spam and advance-fee scams.',
    suggestion: 'Describe the actual offer plainly; name the promotion and its terms.',
  },
  {
    id: 'phishing.credential-request', family: 'phishing', severity: 'high',
    matcher: { kind: 'pattern', pattern: /(?<!\b(?:jamais|ne|n')\s*)\b(?:envoyez|envoie|partagez|partage|communiquez|confirmez|donnez|transmettez)\b[^.!?\n]{0,30}?\b(?:code pin|pin|mot de passe|code secret|otp|code de confirmation|cvv|numéro de carte|numero de carte)\b/i },
    explanation: 'Asks the recipient for a PIN, password, one-time code or card details; legitimate senders never do.',
    suggestion: 'Remove the request. Remind recipients never to share their PIN (« Ne partagez jamais votre code PIN »).',
  },
  {
    id: 'phishing.urgency-link', family: 'phishing', severity: 'high',
    matcher: { kind: 'all', of: [
      { kind: 'pattern', pattern: /\b(?:urgent|immédiatement|immediatement|sous 24 ?h(?:eures)?|dernier avertissement|sera (?:suspendu|bloqué|bloque|désactivé|desactive|fermé|ferme)e?)(?![\p{L}])/iu },
      { kind: 'pattern', pattern: LINK },
    ] },
    explanation: 'Urgency together with a link ("compte suspendu, vérifiez sur ...") is the shape of most phishing.',
    suggestion: 'Drop the threat, or drop the link and ask recipients to open your app or call your official number.',
  },
  {
    id: 'health.sensitive-data', family: 'health', severity: 'high',
    matcher: { kind: 'phrases', phrases: ['VIH', 'séropositif', 'seropositif', 'séropositive', 'seropositive', 'testé positif', 'teste positif', 'diagnostiqué', 'charge virale', 'tuberculose', 'hépatite', 'hepatite'] },
    explanation: 'Contains health details (diagnosis, results, conditions) that must not travel in plain messages.',
    suggestion: 'Say only that results are available and where to get them (« Vos résultats sont disponibles au centre »).',
  },
  {
    id: 'opt-out.missing', family: 'opt-out', severity: 'low', when: 'absent', categories: ['MARKETING'],
    matcher: { kind: 'pattern', pattern: /\bstop\s+(?:au|to)\s+\d+|\b(?:répondez|repondez|envoyez|tapez)\s+["']?stop\b|désabonn|desabonn|désinscri|desinscri|\bopt[\s-]?out\b/i },
    explanation: 'Marketing messages must tell recipients how to opt out.',
    suggestion: 'Add « Répondez STOP pour ne plus recevoir nos messages ».',
  },
];
