import { pino, type Logger } from 'pino';

/** Paths never written to logs: credentials, tokens, secrets. */
export const REDACTED_PATHS = [
  'password', '*.password', 'newPassword', '*.newPassword', 'token', '*.token', 'secret', '*.secret', 'signingSecret', '*.signingSecret',
  'key', '*.key', 'apiKey', '*.apiKey', 'credentials', '*.credentials', 'jwtSecret', 'encryptionKey',
  'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'req.headers["x-gateway-signature"]',
  'headers.authorization', 'headers["x-api-key"]',
  // Two-factor sign-in (docs/security.md): never logged, whatever logs a body or an answer.
  'challengeToken', '*.challengeToken', 'recoveryCode', '*.recoveryCode', 'recoveryCodes', '*.recoveryCodes', 'otpauthUri', '*.otpauthUri', 'sealedSecret', '*.sealedSecret',
  'paystackSecretKey', '*.paystackSecretKey', 'req.headers["x-paystack-signature"]',
  // Single sign-on: an organization's OpenID client secret, the sealed sign-in cookie (docs/security.md).
  'clientSecret', '*.clientSecret', 'client_secret', '*.client_secret', 'res.headers["set-cookie"]',
  // The archive's S3 key: config.archive.s3.credentials.secretAccessKey, however deep a log puts the config.
  'secretAccessKey', '*.secretAccessKey', '*.*.secretAccessKey', '*.*.*.secretAccessKey', '*.*.*.*.secretAccessKey',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, base: { service: 'nkra' }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination as never) : pino(options);
}

export type { Logger };
