import { LINK } from './common.ts';
import type { ComplianceRule } from './types.ts';

/** The English rules. Another language adds a file like this one (same ids where the rule is the same). */
export const EN_RULES: readonly ComplianceRule[] = [
  {
    id: 'spam.prize', family: 'spam', severity: 'medium',
    matcher: { kind: 'phrases', phrases: [
      'you have won', "you've won", 'you are a winner', "you're a winner", 'lucky winner', 'claim your prize', 'claim your reward',
      'congratulations you have', 'you have been selected to receive', 'winning ticket', 'cash prize',
    ] },
    explanation: 'Prize-winning wording is typical of spam and advance-fee scams.',
    suggestion: 'Describe the actual offer plainly; name the promotion and its terms.',
  },
  {
    id: 'spam.money-promise', family: 'spam', severity: 'medium',
    matcher: { kind: 'phrases', phrases: [
      '100% free', 'risk free', 'risk-free', 'guaranteed income', 'double your money', 'make money fast', 'earn cash fast',
      'no investment needed', 'get rich', 'free money', 'instant loan approved',
    ] },
    explanation: 'Promises of free or guaranteed money are the wording spam filters and regulators flag first.',
    suggestion: 'State the real price, rate or condition instead of a guarantee.',
  },
  {
    id: 'spam.pressure', family: 'spam', severity: 'low',
    matcher: { kind: 'phrases', phrases: ['act now', 'buy now', 'order now', 'limited time only', "don't miss out", 'hurry up', 'last chance', 'while stocks last'] },
    explanation: 'High-pressure calls to action read as spam.',
    suggestion: 'Give the real deadline ("offer ends 30 November") instead.',
  },
  {
    id: 'spam.shouting', family: 'spam', severity: 'low',
    matcher: { kind: 'pattern', pattern: /!{3,}|\b[A-Z]{3,}(?:\s+[A-Z]{3,}){3,}\b/ },
    explanation: 'Runs of capitals or exclamation marks are a spam signal.',
    suggestion: 'Write in sentence case with at most one exclamation mark.',
  },
  {
    id: 'phishing.credential-request', family: 'phishing', severity: 'high',
    matcher: { kind: 'pattern', pattern: /(?<!\b(?:never|not|n't|dont)\s+)\b(?:send|share|reply with|text|tell us|give us|provide|confirm|verify|update)\b[^.!?\n]{0,30}?\b(?:pin|password|passcode|otp|cvv|one[- ]time (?:code|password)|card number|security code|mobile money pin|momo pin)\b/i },
    explanation: 'Asks the recipient for a PIN, password, one-time code or card details; legitimate senders never do.',
    suggestion: 'Remove the request. Remind recipients never to share their PIN or codes.',
  },
  {
    id: 'phishing.urgency-link', family: 'phishing', severity: 'high',
    matcher: { kind: 'all', of: [
      { kind: 'pattern', pattern: /\b(?:urgent(?:ly)?|immediately|within (?:24|48) hours|final (?:notice|warning)|verify now|(?:will be|has been|is) (?:suspended|blocked|closed|deactivated|frozen)|last warning)\b/i },
      { kind: 'pattern', pattern: LINK },
    ] },
    explanation: 'Urgency together with a link ("account suspended, verify at ...") is the shape of most phishing.',
    suggestion: 'Drop the threat, or drop the link and ask recipients to open your app or dial your official short code.',
  },
  {
    id: 'health.diagnosis', family: 'health', severity: 'high',
    matcher: { kind: 'phrases', caseSensitive: true, phrases: ['HIV', 'AIDS', 'STI', 'STD'] },
    explanation: 'Names a sensitive condition; an SMS can be read by anyone holding the phone.',
    suggestion: 'Send "Your results are ready; please visit the clinic" and share details in person or in a secure portal.',
  },
  {
    id: 'health.sensitive-data', family: 'health', severity: 'high',
    matcher: { kind: 'phrases', phrases: [
      'diagnosed with', 'tested positive', 'tested negative', 'test result is positive', 'test results are positive', 'hiv status', 'viral load',
      'hepatitis', 'tuberculosis', 'syphilis', 'gonorrhoea', 'gonorrhea', 'chlamydia', 'pregnancy test', 'psychiatric', 'mental health diagnosis',
    ] },
    explanation: 'Contains health details (diagnosis, results, conditions) that must not travel in plain messages.',
    suggestion: 'Tell the patient that results are available and where to get them, without the result itself.',
  },
  {
    id: 'health.record-identifier', family: 'health', severity: 'medium',
    matcher: { kind: 'phrases', phrases: ['medical record number', 'patient id', 'patient number', 'nhis number', 'nhis card number', 'folder number'] },
    explanation: 'Medical record identifiers let others link a recipient to their health records.',
    suggestion: 'Leave the identifier out; the clinic can look it up.',
  },
  {
    id: 'opt-out.missing', family: 'opt-out', severity: 'low', when: 'absent', categories: ['MARKETING'],
    matcher: { kind: 'pattern', pattern: /\b(?:reply|text|send|sms)\s+["']?stop\b|\bstop\s+to\s+\d+|\bopt[\s-]?out\b|\bunsubscribe\b/i },
    explanation: 'Marketing messages must tell recipients how to opt out.',
    suggestion: 'Add "Reply STOP to opt out".',
  },
];
