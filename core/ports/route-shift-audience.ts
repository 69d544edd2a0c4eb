/**
 * Who a route shift affects (docs/routing.md, "Route shift webhooks"): organizations that sent live
 * messages to (country, network) through one of `providers` (the platform's providers of the channel)
 * since `since`. Platform-level (a route is the platform's), read in pages: ids after `after` in
 * ascending order, at most `limit`. Tenants' own vendor accounts are never among `providers`.
 */
export interface RouteShiftAudience {
  organizationsReaching(query: { country: string; network: string; providers: readonly string[]; since: Date }, after: string | null, limit: number): Promise<string[]>;
}
