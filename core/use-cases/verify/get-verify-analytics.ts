import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import type { VerifyDeps } from './verify-support.ts';

export const VerifyAnalyticsQuery = v.object({
  days: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(1, 'must be at least 1'), v.maxValue(90, 'must be at most 90')), '7'),
});

const rate = (approvals: number, starts: number) => (starts === 0 ? null : Math.round((approvals / starts) * 1000) / 10);

/** GET /verify/analytics: starts, approvals and conversion (%) by first channel, by country and per hour over `days`. */
export class GetVerifyAnalytics {
  readonly #deps: Pick<VerifyDeps, 'storage' | 'clock'>;
  constructor(deps: Pick<VerifyDeps, 'storage' | 'clock'>) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const { days } = parseInput(VerifyAnalyticsQuery, raw ?? {});
    const since = new Date(this.#deps.clock.now().getTime() - Number(days) * 86_400_000);
    const rows = await this.#deps.storage.verifications.conversion(scope.organizationId, since, 20_000);
    const group = (key: (r: (typeof rows)[number]) => string) => {
      const totals = new Map<string, { starts: number; approvals: number }>();
      for (const r of rows) {
        const t = totals.get(key(r)) ?? { starts: 0, approvals: 0 };
        t.starts += r.starts; t.approvals += r.approvals;
        totals.set(key(r), t);
      }
      return [...totals].map(([k, t]) => ({ key: k, ...t, conversionRate: rate(t.approvals, t.starts) }));
    };
    const total = rows.reduce((t, r) => ({ starts: t.starts + r.starts, approvals: t.approvals + r.approvals }), { starts: 0, approvals: 0 });
    return {
      since: since.toISOString(), days: Number(days), ...total, conversionRate: rate(total.approvals, total.starts),
      byChannel: group((r) => r.channel).map(({ key, ...t }) => ({ channel: key, ...t })),
      byCountry: group((r) => r.country ?? 'EMAIL').map(({ key, ...t }) => ({ country: key, ...t })),
      perHour: group((r) => r.hour.toISOString()).map(({ key, ...t }) => ({ hour: key, ...t })),
    };
  }
}
