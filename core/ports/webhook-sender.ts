/** One signed POST to a webhook endpoint. */
export interface WebhookRequest {
  url: string;
  /** The exact bytes sent and signed. */
  body: string;
  kind: string;
  eventId: string;
  /** The endpoint's signing secret, and the previous one during a rotation's grace period. */
  secret: string;
  previousSecret: string | null;
}

/** The outcome of one attempt; `ok` only for a 2xx answer. */
export interface WebhookAttemptResult {
  ok: boolean;
  statusCode: number | null;
  /** Why it failed (timeout, refused address, connection error, non-2xx); null on success. */
  error: string | null;
  durationMs: number;
}

/**
 * Sends webhook deliveries over HTTP(S) with SSRF protection: only http(s) URLs whose resolved
 * addresses are all public, connecting to the checked address (no DNS rebinding), no redirects,
 * capped response bodies and a timeout. Never throws.
 */
export interface WebhookSender {
  /** Why `url` may not receive webhooks (scheme, unresolvable host, private address), or null when it may. */
  checkTarget(url: string): Promise<string | null>;
  post(request: WebhookRequest): Promise<WebhookAttemptResult>;
}
