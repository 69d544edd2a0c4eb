import type { Config } from '../../hosts/config.ts';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    nodeEnv: 'test', port: 0, host: '127.0.0.1', databaseUrl: undefined, dataDir: '/tmp/nkra-test-data',
    jwtSecret: 'test-jwt-secret-that-is-long-enough-0123456789', encryptionKey: '0'.repeat(64), sessionTtlSeconds: 3600,
    redisUrl: undefined, metricsToken: undefined, workerMetricsPort: undefined, logLevel: 'silent', bodyLimitBytes: 1024 * 1024,
    publicUrl: 'http://localhost:3000', shutdownTimeoutMs: 2_000, workerConcurrency: 5, deliveryFetchers: 4,
    loginLimitPerEmail: 10, loginLimitPerIp: 1000, adminEmail: undefined, adminPassword: undefined,
    fraudRecipientPerHour: 20, fraudNewTenantDays: 7, fraudNewTenantPerHour: 200, deliveryMaxAttempts: 6, providersFile: undefined, providerTimeoutMs: 2_000, databaseListenUrl: undefined, providerCircuitCooldownMs: 30_000, databasePoolSize: 10, databasePreparedStatements: true,
    passwordResetTtlMinutes: 30, passwordResetLimitPerEmail: 5, passwordResetLimitPerIp: 1000,
    // Webhook receivers and fakes listen on loopback; never widens a vendor's host allow-list (docs/security.md).
    egressAllowPrivateHosts: ['127.0.0.1', 'localhost', '::1'],
    paymentGateway: 'sandbox', paystackSecretKey: undefined, paystackBaseUrl: 'https://api.paystack.co', paymentGatewayTimeoutMs: 2_000,
    paymentCallbackUrl: 'http://localhost:3000/', topUpLimits: { min: 2_500, max: 5_000_000, presets: [2_500, 5_000, 10_000, 25_000, 50_000, 100_000] }, lowBalanceThreshold: 1_000,
    importMaxBytes: 20 * 1024 * 1024,
    // Off unless a test turns it on: most tests count money from a wallet that starts at 0.
    trialCredit: { amount: 0, perDay: 0 },
    ownAccountFee: 1, vendorBaseUrls: {}, numberLookup: { vendor: null, credentials: {}, baseUrl: undefined, price: 5, ttlDays: 30 }, routeEvaluationMs: 30_000, networkRouting: true, inboxStreamsPerSubscriber: 10, inboxStreamsMax: 20_000,
    // Off unless a test turns it on: a suite's marketing sends must not depend on the hour it runs at (tests/http/send-windows.test.ts turns it on).
    sendWindows: false,
    // Off unless a test turns it on (tests/http/tracked-links.test.ts): bodies with URLs stay as written.
    linkTracking: false, linkBaseUrl: 'http://localhost:3000/l', linksPort: 0,
    // Nothing expires in tests (rows are often dated in the past); partitions ahead are still created at worker start.
    retention: { messagesMonths: 0, outboundEventsMonths: 0, webhookDeliveriesDays: 0, monthsAhead: 3, auditLogDays: 0 },
    archive: null,
    partitionMaintenanceMs: 3_600_000,
    twoFactor: { rpId: 'localhost', rpName: 'Nkra', issuer: 'Nkra', origins: ['http://localhost:3000'], challengeTtlSeconds: 300, requiredForPlatformAdmins: false },
    ...overrides,
  };
}
