import { existsSync } from 'node:fs';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import type { TopUpLimits } from '../core/domain/payment.ts';
import type { RetentionSettings } from '../adapters/postgres/partition-maintenance.ts';
import type { ArchiveSettings } from '../adapters/archive/open-archive-target.ts';
import { ARCHIVE_ENV, archiveConfig } from './archive-config.ts';
import { intIn } from './env-values.ts';
import { twoFactorConfig, type TwoFactorConfig } from './two-factor-config.ts';

/**
 * Service configuration, read from environment variables and validated at start. Every variable is
 * documented in the README with its default.
 */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  jwtSecret: string;
  encryptionKey: string;
  sessionTtlSeconds: number;
  redisUrl: string | undefined;
  metricsToken: string | undefined;
  /** `npm run worker`: serve its Prometheus metrics (providers, queues, process) on this port; unset: none. */
  workerMetricsPort: number | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  publicUrl: string;
  /** LINK_BASE_URL: where tracked short links point (docs/links.md); default PUBLIC_URL + '/l'. */
  linkBaseUrl: string;
  /** LINKS_PORT: the port of `npm run links` (the redirect service on its own). */
  linksPort: number;
  shutdownTimeoutMs: number;
  workerConcurrency: number;
  /** Fetch loops on notification-send per process, each holding one batch of `workerConcurrency` jobs (docs/messaging.md, "Delivery"). */
  deliveryFetchers: number;
  loginLimitPerEmail: number;
  loginLimitPerIp: number;
  passwordResetTtlMinutes: number;
  passwordResetLimitPerEmail: number;
  passwordResetLimitPerIp: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  fraudRecipientPerHour: number;
  fraudNewTenantDays: number;
  fraudNewTenantPerHour: number;
  deliveryMaxAttempts: number;
  providersFile: string | undefined;
  providerTimeoutMs: number;
  /** DATABASE_LISTEN_URL: a direct (or session-pooled) connection for the in-app inbox's LISTEN, when DATABASE_URL goes through a transaction-mode pooler. */
  databaseListenUrl: string | undefined;
  /** PROVIDER_CIRCUIT_COOLDOWN_MS: how long an open circuit stays open before its half-open trial (docs/failover.md). */
  providerCircuitCooldownMs: number;
  databasePoolSize: number;
  /** DATABASE_PREPARED_STATEMENTS: false for a transaction-mode pooler that cannot route named prepared statements (PgBouncer < 1.21). */
  databasePreparedStatements: boolean;
  /**
   * EGRESS_ALLOW_PRIVATE_HOSTS: hosts (or `*`) whose private addresses tenant-influenced connections (webhooks,
   * own vendor accounts) may reach; development and tests only, refused in production (docs/security.md).
   */
  egressAllowPrivateHosts: string[];
  /** DNS_SERVERS: resolvers (`ip` or `ip:port`) for SSO domain verification's TXT lookups; unset: the system's (docs/security.md). */
  dnsServers?: string[] | undefined;
  /** SSO_TIMEOUT_MS: bound on each call to an organization's identity provider (discovery, token, UserInfo); default 10 s. */
  ssoTimeoutMs?: number | undefined;
  /** Billing (docs/billing.md): the payment gateway, top-up limits in pesewas, the low-balance alert threshold in pesewas (0: off). */
  paymentGateway: 'sandbox' | 'paystack' | 'none';
  paystackSecretKey: string | undefined;
  paystackBaseUrl: string;
  paymentGatewayTimeoutMs: number;
  paymentCallbackUrl: string;
  topUpLimits: TopUpLimits;
  lowBalanceThreshold: number;
  /** Pesewas a new organization starts with, and how many organizations may get it per rolling 24 hours (docs/billing.md). */
  trialCredit: { amount: number; perDay: number };
  /** Largest contact CSV accepted by POST /contacts/import (docs/contacts.md). */
  importMaxBytes: number;
  /** Pesewas the platform charges per message sent through an organization's own vendor account (docs/providers.md). */
  ownAccountFee: number;
  /** In-app inbox streams (docs/inbox.md): open SSE streams per subscriber, and per API process. */
  inboxStreamsPerSubscriber: number;
  inboxStreamsMax: number;
  /** SEND_WINDOWS: false holds no message to its country's send windows (docs/consent.md); quiet hours still apply. */
  sendWindows: boolean;
  /** LINK_TRACKING: off replaces no URL by a tracked link on any organization (docs/links.md); on: each organization's settings decide. */
  linkTracking: boolean;
  /** VENDOR_BASE_URLS: vendor key -> base URL for organizations' own accounts (regional endpoints, local fakes); tenants cannot set one. */
  vendorBaseUrls: Record<string, string>;
  /** NUMBER_LOOKUP_*: the platform's paid number lookup (docs/routing.md); vendor null: none. */
  numberLookup: { vendor: 'twilio' | 'termii' | null; credentials: Record<string, string>; baseUrl: string | undefined; price: number; ttlDays: number };
  /** ROUTE_EVALUATION_MS: how often a worker runs the learning routes' decision (docs/routing.md). */
  routeEvaluationMs: number;
  /** NETWORK_ROUTING=off: no network on the send path (no network prices, routes or learning); for comparison runs (bench:send). */
  networkRouting: boolean;
  /** Retention and partition upkeep (docs/operations.md): RETENTION_*, PARTITIONS_AHEAD_MONTHS. */
  retention: RetentionSettings;
  /** ARCHIVE_DIR or ARCHIVE_S3_*: where expired partitions are written before they are dropped; null drops them outright. */
  archive: ArchiveSettings | null;
  /** PARTITION_MAINTENANCE_INTERVAL_MS: how often each worker runs partition upkeep and retention (one at a time across processes). */
  partitionMaintenanceMs: number;
  /** Two-factor sign-in: WebAuthn relying party, challenge lifetime, the platform administrators' requirement (hosts/two-factor-config.ts). */
  twoFactor: TwoFactorConfig;
}

/** A GHS amount with at most two decimals, as a number. */
const ghsAmount = v.pipe(v.string(), v.regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a GHS amount with at most two decimals'), v.transform(Number));

const EnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test'], 'must be development, production or test'), 'development'),
  PORT: v.optional(intIn(0, 65535), '3000'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL'))),
  DATABASE_LISTEN_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL'))),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  JWT_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  ENCRYPTION_KEY: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'))),
  SESSION_TTL_SECONDS: v.optional(intIn(60, 30 * 24 * 3600), '43200'),
  REDIS_URL: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\/.+/, 'must be a redis:// URL'))),
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be a pino level'), 'info'),
  BODY_LIMIT_BYTES: v.optional(intIn(1024, 50 * 1024 * 1024), String(1024 * 1024)),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  LINK_BASE_URL: v.optional(v.pipe(v.string(), v.regex(/^https?:\/\/[^/?#]+\/l\/?$/, 'must be a URL ending in /l (e.g. https://go.example.com/l)'))),
  LINKS_PORT: v.optional(intIn(1, 65_535), '3100'),
  SHUTDOWN_TIMEOUT_MS: v.optional(intIn(0, 600_000), '25000'),
  WORKER_CONCURRENCY: v.optional(intIn(1, 200), '25'),
  WORKER_DELIVERY_FETCHERS: v.optional(intIn(1, 32), '4'),
  INBOX_STREAMS_PER_SUBSCRIBER: v.optional(intIn(1, 1_000), '10'),
  INBOX_STREAMS_MAX: v.optional(intIn(1, 1_000_000), '20000'),
  LOGIN_LIMIT_PER_EMAIL: v.optional(intIn(1, 10_000), '10'),
  LOGIN_LIMIT_PER_IP: v.optional(intIn(1, 100_000), '100'),
  PASSWORD_RESET_TTL_MINUTES: v.optional(intIn(5, 24 * 60), '30'),
  PASSWORD_RESET_LIMIT_PER_EMAIL: v.optional(intIn(1, 1_000), '5'),
  PASSWORD_RESET_LIMIT_PER_IP: v.optional(intIn(1, 100_000), '30'),
  FRAUD_RECIPIENT_PER_HOUR: v.optional(intIn(1, 1_000_000), '20'),
  FRAUD_NEW_TENANT_DAYS: v.optional(intIn(0, 365), '7'),
  FRAUD_NEW_TENANT_PER_HOUR: v.optional(intIn(1, 10_000_000), '200'),
  DELIVERY_MAX_ATTEMPTS: v.optional(intIn(1, 9), '6'), // at most the queue's 1 + 8 retries (pg-boss-factory.ts)
  PROVIDERS_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  PROVIDER_TIMEOUT_MS: v.optional(intIn(100, 120_000), '10000'),
  PROVIDER_CIRCUIT_COOLDOWN_MS: v.optional(intIn(1_000, 600_000), '30000'),
  DATABASE_POOL_SIZE: v.optional(intIn(1, 200), '10'),
  DATABASE_PREPARED_STATEMENTS: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'true'),
  EGRESS_ALLOW_PRIVATE_HOSTS: v.optional(v.pipe(v.string(), v.regex(/^\s*$|^\s*(\*|[A-Za-z0-9.:\[\]_-]+)(\s*,\s*[A-Za-z0-9.:\[\]_-]+)*\s*$/, 'must be * or comma-separated host names or IP addresses')), ''),
  DNS_SERVERS: v.optional(v.pipe(v.string(), v.regex(/^\s*$|^\s*[0-9A-Fa-f.:\[\]]+(\s*,\s*[0-9A-Fa-f.:\[\]]+)*\s*$/, 'must be comma-separated IP addresses (with an optional :port)')), ''),
  SSO_TIMEOUT_MS: v.optional(intIn(500, 60_000), '10000'),
  /** Deprecated: `true` is EGRESS_ALLOW_PRIVATE_HOSTS=*. */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
  PAYMENT_GATEWAY: v.optional(v.picklist(['sandbox', 'paystack', 'none'], 'must be sandbox, paystack or none')),
  PAYSTACK_SECRET_KEY: v.optional(v.pipe(v.string(), v.regex(/^sk_(test|live)_\S+$/, 'must be a Paystack secret key (sk_test_... or sk_live_...)'))),
  PAYSTACK_BASE_URL: v.optional(v.pipe(v.string(), v.url('must be a URL')), 'https://api.paystack.co'),
  PAYMENT_GATEWAY_TIMEOUT_MS: v.optional(intIn(100, 120_000), '10000'),
  PAYMENT_CALLBACK_URL: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  TOP_UP_MIN_GHS: v.optional(ghsAmount, '25'),
  TOP_UP_MAX_GHS: v.optional(ghsAmount, '50000'),
  TOP_UP_PRESETS_GHS: v.optional(v.pipe(v.string(), v.regex(/^\s*\d{1,7}(\.\d{1,2})?(\s*,\s*\d{1,7}(\.\d{1,2})?){0,11}\s*$/, 'must be up to 12 comma-separated GHS amounts')), '25,50,100,250,500,1000'),
  LOW_BALANCE_THRESHOLD_GHS: v.optional(ghsAmount, '10'),
  WORKER_METRICS_PORT: v.optional(intIn(1, 65535)),
  TRIAL_CREDIT_GHS: v.optional(v.pipe(ghsAmount, v.maxValue(100, 'must be at most 100')), '5'),
  TRIAL_CREDITS_PER_DAY: v.optional(intIn(0, 1_000_000), '200'),
  SEND_WINDOWS: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  LINK_TRACKING: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  OWN_ACCOUNT_FEE_GHS: v.optional(v.pipe(ghsAmount, v.maxValue(10, 'must be at most 10')), '0.01'),
  NUMBER_LOOKUP_VENDOR: v.optional(v.picklist(['', 'twilio', 'termii'], 'must be twilio, termii or empty'), ''),
  NUMBER_LOOKUP_ACCOUNT_SID: v.optional(v.string(), ''),
  NUMBER_LOOKUP_AUTH_TOKEN: v.optional(v.string(), ''),
  NUMBER_LOOKUP_API_KEY: v.optional(v.string(), ''),
  NUMBER_LOOKUP_BASE_URL: v.optional(v.pipe(v.string(), v.url('must be an http(s) URL'))),
  NUMBER_LOOKUP_PRICE_GHS: v.optional(v.pipe(ghsAmount, v.maxValue(10, 'must be at most 10')), '0.05'),
  NUMBER_LOOKUP_TTL_DAYS: v.optional(intIn(1, 365), '30'),
  ROUTE_EVALUATION_MS: v.optional(intIn(1_000, 600_000), '30000'),
  NETWORK_ROUTING: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  VENDOR_BASE_URLS: v.optional(v.pipe(v.string(), v.check(isBaseUrlMap, 'must be a JSON object of vendor key to http(s) URL'))),
  IMPORT_MAX_BYTES: v.optional(intIn(1024, 2 * 1024 * 1024 * 1024), String(200 * 1024 * 1024)),
  ADMIN_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an email address'))),
  ADMIN_PASSWORD: v.optional(v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'))),
  RETENTION_MESSAGES_MONTHS: v.optional(intIn(0, 1200), '13'),
  RETENTION_OUTBOUND_EVENTS_MONTHS: v.optional(intIn(0, 1200), '3'),
  RETENTION_WEBHOOK_DELIVERIES_DAYS: v.optional(intIn(0, 36_500), '30'),
  RETENTION_AUDIT_LOG_DAYS: v.optional(intIn(0, 36_500), '0'),
  PARTITIONS_AHEAD_MONTHS: v.optional(intIn(1, 24), '3'),
  ...ARCHIVE_ENV,
  PARTITION_MAINTENANCE_INTERVAL_MS: v.optional(intIn(1_000, 24 * 3600 * 1000), '3600000'),
});

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Reads and validates the environment. Generates and keeps secrets in the data directory outside production. */
export async function loadConfig(env: Record<string, string | undefined> = process.env): Promise<Config> {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = v.safeParse(EnvSchema, present);
  if (!parsed.success) {
    throw new ConfigError(parsed.issues.map((issue) => `${String(issue.path?.[0]?.key ?? 'environment')}: ${issue.message}`));
  }
  const e = parsed.output;
  const dataDir = path.resolve(e.DATA_DIR);
  let jwtSecret = e.JWT_SECRET;
  let encryptionKey = e.ENCRYPTION_KEY;
  if (e.NODE_ENV === 'production') {
    const missing = [!jwtSecret && 'JWT_SECRET: is required in production', !encryptionKey && 'ENCRYPTION_KEY: is required in production',
      e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true' && 'WEBHOOK_ALLOW_PRIVATE_ADDRESSES: must not be true in production (webhooks could reach internal services)',
      e.EGRESS_ALLOW_PRIVATE_HOSTS.trim() !== '' && 'EGRESS_ALLOW_PRIVATE_HOSTS: must be empty in production (tenants could reach internal services)'].filter((x): x is string => Boolean(x));
    if (missing.length > 0) throw new ConfigError(missing);
  } else if (!jwtSecret || !encryptionKey) {
    const kept = await keptSecrets(dataDir);
    jwtSecret ??= kept.jwtSecret;
    encryptionKey ??= kept.encryptionKey;
  }
  // Without PUBLIC_URL, links (checkout, reset emails, vendor callbacks) point at this process's own port.
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const billing = billingConfig(e, publicUrl);
  const { archive, problems: archiveProblems } = archiveConfig(e, Object.keys(present));
  if (archiveProblems.length > 0) throw new ConfigError(archiveProblems);
  const lookupProblems = [
    ...(e.NUMBER_LOOKUP_VENDOR === 'twilio' && (!e.NUMBER_LOOKUP_ACCOUNT_SID || !e.NUMBER_LOOKUP_AUTH_TOKEN) ? ['NUMBER_LOOKUP_ACCOUNT_SID and NUMBER_LOOKUP_AUTH_TOKEN: required with NUMBER_LOOKUP_VENDOR=twilio'] : []),
    ...(e.NUMBER_LOOKUP_VENDOR === 'termii' && !e.NUMBER_LOOKUP_API_KEY ? ['NUMBER_LOOKUP_API_KEY: required with NUMBER_LOOKUP_VENDOR=termii'] : []),
  ];
  if (lookupProblems.length > 0) throw new ConfigError(lookupProblems);
  return {
    ...billing,
    nodeEnv: e.NODE_ENV, port: e.PORT, host: e.HOST, databaseUrl: e.DATABASE_URL, dataDir,
    jwtSecret: jwtSecret!, encryptionKey: encryptionKey!, sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    redisUrl: e.REDIS_URL, metricsToken: e.METRICS_TOKEN, workerMetricsPort: e.WORKER_METRICS_PORT, logLevel: e.LOG_LEVEL, bodyLimitBytes: e.BODY_LIMIT_BYTES,
    publicUrl, linkBaseUrl: (e.LINK_BASE_URL ?? `${publicUrl}/l`).replace(/\/+$/, ''), linksPort: e.LINKS_PORT, shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS, workerConcurrency: e.WORKER_CONCURRENCY, deliveryFetchers: e.WORKER_DELIVERY_FETCHERS,
    loginLimitPerEmail: e.LOGIN_LIMIT_PER_EMAIL, loginLimitPerIp: e.LOGIN_LIMIT_PER_IP,
    passwordResetTtlMinutes: e.PASSWORD_RESET_TTL_MINUTES, passwordResetLimitPerEmail: e.PASSWORD_RESET_LIMIT_PER_EMAIL, passwordResetLimitPerIp: e.PASSWORD_RESET_LIMIT_PER_IP,
    adminEmail: e.ADMIN_EMAIL, adminPassword: e.ADMIN_PASSWORD,
    fraudRecipientPerHour: e.FRAUD_RECIPIENT_PER_HOUR, fraudNewTenantDays: e.FRAUD_NEW_TENANT_DAYS,
    fraudNewTenantPerHour: e.FRAUD_NEW_TENANT_PER_HOUR, deliveryMaxAttempts: e.DELIVERY_MAX_ATTEMPTS,
    providersFile: e.PROVIDERS_FILE, providerTimeoutMs: e.PROVIDER_TIMEOUT_MS, databaseListenUrl: e.DATABASE_LISTEN_URL, providerCircuitCooldownMs: e.PROVIDER_CIRCUIT_COOLDOWN_MS, databasePoolSize: e.DATABASE_POOL_SIZE, databasePreparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'true',
    egressAllowPrivateHosts: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES === 'true' ? ['*'] : e.EGRESS_ALLOW_PRIVATE_HOSTS.split(',').map((h) => h.trim()).filter(Boolean),
    importMaxBytes: e.IMPORT_MAX_BYTES,
    dnsServers: e.DNS_SERVERS.split(',').map((h) => h.trim()).filter(Boolean), ssoTimeoutMs: e.SSO_TIMEOUT_MS,
    ownAccountFee: Math.round(e.OWN_ACCOUNT_FEE_GHS * 100), sendWindows: e.SEND_WINDOWS === 'on', linkTracking: e.LINK_TRACKING === 'on',
    inboxStreamsPerSubscriber: e.INBOX_STREAMS_PER_SUBSCRIBER, inboxStreamsMax: e.INBOX_STREAMS_MAX,
    vendorBaseUrls: e.VENDOR_BASE_URLS ? JSON.parse(e.VENDOR_BASE_URLS) as Record<string, string> : {},
    numberLookup: {
      vendor: e.NUMBER_LOOKUP_VENDOR === '' ? null : e.NUMBER_LOOKUP_VENDOR,
      credentials: { accountSid: e.NUMBER_LOOKUP_ACCOUNT_SID, authToken: e.NUMBER_LOOKUP_AUTH_TOKEN, apiKey: e.NUMBER_LOOKUP_API_KEY },
      baseUrl: e.NUMBER_LOOKUP_BASE_URL, price: Math.round(e.NUMBER_LOOKUP_PRICE_GHS * 100), ttlDays: e.NUMBER_LOOKUP_TTL_DAYS,
    },
    routeEvaluationMs: e.ROUTE_EVALUATION_MS, networkRouting: e.NETWORK_ROUTING === 'on',
    retention: {
      messagesMonths: e.RETENTION_MESSAGES_MONTHS, outboundEventsMonths: e.RETENTION_OUTBOUND_EVENTS_MONTHS,
      webhookDeliveriesDays: e.RETENTION_WEBHOOK_DELIVERIES_DAYS, monthsAhead: e.PARTITIONS_AHEAD_MONTHS,
      auditLogDays: e.RETENTION_AUDIT_LOG_DAYS,
    },
    archive,
    partitionMaintenanceMs: e.PARTITION_MAINTENANCE_INTERVAL_MS,
    twoFactor: twoFactorConfig(present, publicUrl, e.NODE_ENV),
  };
}

function isBaseUrlMap(text: string): boolean {
  try {
    const map: unknown = JSON.parse(text);
    return typeof map === 'object' && map !== null && !Array.isArray(map)
      && Object.values(map).every((url) => typeof url === 'string' && /^https?:\/\/[^\s]+$/.test(url));
  } catch {
    return false;
  }
}

/** The billing settings, cross-checked: a Paystack gateway needs its key; the sandbox never runs in production; min <= presets <= max. */
function billingConfig(e: v.InferOutput<typeof EnvSchema>, publicUrl: string): Pick<Config, 'paymentGateway' | 'paystackSecretKey' | 'paystackBaseUrl'
  | 'paymentGatewayTimeoutMs' | 'paymentCallbackUrl' | 'topUpLimits' | 'lowBalanceThreshold' | 'trialCredit'> {
  const paymentGateway = e.PAYMENT_GATEWAY ?? (e.NODE_ENV === 'production' ? 'none' : 'sandbox');
  const toPesewas = (ghs: number) => Math.round(ghs * 100);
  const min = toPesewas(e.TOP_UP_MIN_GHS);
  const max = toPesewas(e.TOP_UP_MAX_GHS);
  const presets = e.TOP_UP_PRESETS_GHS.split(',').map((p) => toPesewas(Number(p.trim())));
  const problems = [
    paymentGateway === 'paystack' && !e.PAYSTACK_SECRET_KEY && 'PAYSTACK_SECRET_KEY: is required with PAYMENT_GATEWAY=paystack',
    paymentGateway === 'sandbox' && e.NODE_ENV === 'production' && 'PAYMENT_GATEWAY: the sandbox gateway credits wallets without payment and is refused in production',
    min < 1 && 'TOP_UP_MIN_GHS: must be at least 0.01',
    min > max && 'TOP_UP_MAX_GHS: must not be below TOP_UP_MIN_GHS',
    presets.some((p) => p < min || p > max) && 'TOP_UP_PRESETS_GHS: every preset must lie within TOP_UP_MIN_GHS and TOP_UP_MAX_GHS',
  ].filter((x): x is string => Boolean(x));
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    paymentGateway, paystackSecretKey: e.PAYSTACK_SECRET_KEY, paystackBaseUrl: e.PAYSTACK_BASE_URL.replace(/\/+$/, ''),
    paymentGatewayTimeoutMs: e.PAYMENT_GATEWAY_TIMEOUT_MS,
    paymentCallbackUrl: e.PAYMENT_CALLBACK_URL ?? `${publicUrl}/`,
    topUpLimits: { min, max, presets }, lowBalanceThreshold: toPesewas(e.LOW_BALANCE_THRESHOLD_GHS),
    trialCredit: { amount: toPesewas(e.TRIAL_CREDIT_GHS), perDay: e.TRIAL_CREDITS_PER_DAY },
  };
}

/**
 * Secrets generated once for the embedded default and kept (mode 0600) in the data directory. Several
 * processes may start together on one data directory: the file is written whole under a temporary
 * name and then hard-linked into place (atomic, and refused when another process got there first), so
 * no process ever reads a half-written file.
 */
async function keptSecrets(dataDir: string): Promise<{ jwtSecret: string; encryptionKey: string }> {
  const file = path.join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    await mkdir(dataDir, { recursive: true });
    const secrets = { jwtSecret: randomBytes(48).toString('base64url'), encryptionKey: randomBytes(32).toString('hex') };
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(temporary, JSON.stringify(secrets), { mode: 0o600, flag: 'wx' });
    try {
      await link(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(temporary);
    }
  }
  return JSON.parse(await readFile(file, 'utf8')) as { jwtSecret: string; encryptionKey: string };
}
