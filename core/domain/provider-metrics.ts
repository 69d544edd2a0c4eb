/** Pure helpers of the provider metrics page (GET /admin/provider-metrics; docs/observability.md). */

export const MINUTE_MS = 60_000;

/** The start of the UTC minute holding `at`. */
export function startOfMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * The `q` quantile (0..1) of `values` with linear interpolation between the closest ranks, like
 * PostgreSQL's percentile_cont, rounded to a whole number (half away from zero); null for no values.
 */
export function percentileCont(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const value = sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
  return Math.round(value);
}

/** Failed share of attempts, 0..1 with four decimals; 0 for no attempts. */
export function errorRate(attempts: number, failed: number): number {
  return attempts === 0 ? 0 : Math.round((failed / attempts) * 10_000) / 10_000;
}
