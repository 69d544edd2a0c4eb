/**
 * The one policy for outbound connections a tenant can influence: webhook URLs, and every URL an
 * organization's own vendor account connects to (docs/security.md). Addresses are checked after
 * resolution (private, loopback, link-local and metadata, CGNAT, multicast, reserved, their IPv6 and
 * IPv4-mapped forms) and the connection goes to the address that was checked; redirects are not
 * followed. Operator-configured endpoints (the platform's providers, VENDOR_BASE_URLS) are trusted.
 * Never throws: answers are reasons (text fit to show the tenant, no remote content) or null.
 */
export interface EgressPolicy {
  /** Why `url` (a webhook target) may not be reached: scheme, credentials in it, unresolvable host, non-public address; null when it may. */
  checkUrl(url: string): Promise<string | null>;
  /**
   * Why an own `vendor` account may not connect to `url`: the host is neither one of the vendor's own
   * hosts (core/domain/vendor-endpoints.ts) nor the operator's endpoint for it, or is a non-public IP
   * literal; null when it may. Host names are resolved and checked again at every connection.
   */
  checkVendorUrl(vendor: string, url: string): string | null;
}
