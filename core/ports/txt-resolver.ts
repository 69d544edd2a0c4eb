/**
 * DNS TXT lookups for domain verification (docs/security.md, "Single sign-on"). Every lookup is bounded
 * by the adapter's timeout. Never throws.
 */
export interface TxtResolver {
  /**
   * The TXT records at `name`, each record's strings joined; an empty array when the name has none
   * (NXDOMAIN, no data); null when it could not be answered now (timeout, server failure).
   */
  resolveTxt(name: string): Promise<string[] | null>;
}
