import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

/** One message the sink took, with enough of the MIME parsed to assert on. */
export interface SinkMessage {
  mailFrom: string;
  rcptTo: string[];
  /** Header names lowercased, folded lines joined, encoded words decoded. */
  headers: Record<string, string>;
  subject: string;
  text: string | null;
  html: string | null;
  raw: string;
}

/** What the next message (or, for slow-greeting, the next connection) gets. */
export type SmtpOutcome =
  | { kind: 'accept' }
  /** Refuses at MAIL FROM, RCPT TO or the end of DATA with this reply code (4xx transient, 5xx permanent). */
  | { kind: 'reject'; stage: 'mail' | 'rcpt' | 'data'; code: number; message?: string }
  /** Delays the 220 greeting of the next connection. */
  | { kind: 'slow-greeting'; delayMs: number }
  /** Delays the answer to DATA. */
  | { kind: 'slow-data'; delayMs: number };

export interface SmtpSink {
  host: string;
  port: number;
  user: string;
  pass: string;
  received: SinkMessage[];
  /** Login attempts (user names) and whether each succeeded. */
  logins: Array<{ user: string; ok: boolean }>;
  script(next: SmtpOutcome): void;
  close(): Promise<void>;
}

/**
 * A local SMTP server (smtp-server) on 127.0.0.1 and an ephemeral port: no STARTTLS, AUTH PLAIN/LOGIN
 * over plain text against one user, scriptable per message, recording what it accepts.
 */
export async function startSmtpSink(options: { user?: string; pass?: string } = {}): Promise<SmtpSink> {
  const user = options.user ?? 'sink-user';
  const pass = options.pass ?? 'sink-password';
  const received: SinkMessage[] = [];
  const logins: SmtpSink['logins'] = [];
  const queue: SmtpOutcome[] = [];
  const perSession = new Map<string, SmtpOutcome>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => { const t = setTimeout(() => { timers.delete(t); run(); }, ms); timers.add(t); };
  const refuse = (code: number, message: string): SMTPServerError => Object.assign(new Error(message), { responseCode: code });

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onConnect(_session, callback) {
      const next = queue[0];
      if (next?.kind === 'slow-greeting') { queue.shift(); later(next.delayMs, () => callback()); return; }
      callback();
    },
    onAuth(auth, _session, callback) {
      const ok = auth.username === user && auth.password === pass;
      logins.push({ user: auth.username ?? '', ok });
      if (!ok) { callback(refuse(535, '5.7.8 Authentication credentials invalid')); return; }
      callback(null, { user: auth.username });
    },
    onMailFrom(_address, session, callback) {
      const next = queue[0]?.kind === 'slow-greeting' ? { kind: 'accept' as const } : queue.shift() ?? { kind: 'accept' as const };
      perSession.set(session.id, next);
      if (next.kind === 'reject' && next.stage === 'mail') { callback(refuse(next.code, next.message ?? `${next.code} sender refused`)); return; }
      callback();
    },
    onRcptTo(_address, session, callback) {
      const next = perSession.get(session.id);
      if (next?.kind === 'reject' && next.stage === 'rcpt') { callback(refuse(next.code, next.message ?? `${next.code} mailbox unavailable`)); return; }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const next = perSession.get(session.id);
        const finish = () => {
          if (next?.kind === 'reject' && next.stage === 'data') { callback(refuse(next.code, next.message ?? `${next.code} message refused`)); return; }
          const raw = Buffer.concat(chunks).toString('utf8');
          received.push({ mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', rcptTo: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(raw), raw });
          callback(null, 'OK: queued as sink');
        };
        if (next?.kind === 'slow-data') later(next.delayMs, finish); else finish();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  return {
    host: '127.0.0.1', port, user, pass, received, logins,
    script: (next) => { queue.push(next); },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Headers, subject and the text/html parts of a (possibly multipart/alternative) message. */
function parseMessage(raw: string): Pick<SinkMessage, 'headers' | 'subject' | 'text' | 'html'> {
  const { headers, body } = splitPart(raw);
  const parts = leafParts(headers, body);
  const find = (type: string) => parts.find((p) => (p.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(type));
  const text = find('text/plain');
  const html = find('text/html');
  return { headers, subject: headers['subject'] ?? '', text: text ? decodeBody(text) : null, html: html ? decodeBody(html) : null };
}

interface Part { headers: Record<string, string>; body: string }

function splitPart(raw: string): Part {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at === -1 ? raw : raw.slice(0, at);
  const body = at === -1 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function leafParts(headers: Record<string, string>, body: string): Part[] {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [{ headers, body }];
  const sections = body.split(`--${boundary}`).slice(1).filter((s) => !s.startsWith('--'));
  return sections.flatMap((section) => {
    const part = splitPart(section.replace(/^\r?\n/, ''));
    return leafParts(part.headers, part.body);
  });
}

/** The decoded part, with CRLF line ends read as '\n'. */
function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body = part.body.replace(/\r?\n$/, '');
  const decoded = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body;
  return decoded.replace(/\r\n/g, '\n');
}

function decodeQuotedPrintable(text: string): string {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) { bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16)); i += 2; }
    else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=), adjacent ones joined. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, data: string) => (
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' '))
  ));
}
