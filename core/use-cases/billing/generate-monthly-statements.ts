import { AppError } from '../../errors.ts';
import { buildInvoice, monthBounds, previousMonth } from '../../domain/invoice.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

const PAGE = 100;

export interface StatementRun {
  period: string;
  created: number;
  existing: number;
}

/**
 * The worker's monthly run (and a maintenance tool): a statement for every organization with a
 * wallet, for `period` ('YYYY-MM', default the month before now). Idempotent: an organization that
 * already has its statement is skipped, so a rerun or a second worker creates nothing twice.
 * Organizations are paged by id; `onProgress` reports after each page.
 */
export class GenerateMonthlyStatements {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(period?: string, onProgress: (run: StatementRun) => void = () => undefined): Promise<StatementRun> {
    const { storage, ids, clock } = this.#deps;
    const month = period === undefined ? previousMonth(clock.now()) : withBounds(period);
    const run: StatementRun = { period: month.period, created: 0, existing: 0 };
    let after: string | null = null;
    for (;;) {
      const organizations = await storage.billingReports.organizationsWithWallets(after, PAGE);
      for (const organizationId of organizations) {
        if (await this.generateOne(organizationId, month)) run.created += 1;
        else run.existing += 1;
      }
      onProgress({ ...run });
      if (organizations.length < PAGE) return run;
      after = organizations[organizations.length - 1]!;
    }
  }

  /** One organization's statement; false when it already exists. */
  async generateOne(organizationId: string, month: { period: string; start: Date; end: Date }): Promise<boolean> {
    const { storage, ids, clock } = this.#deps;
    if (await storage.invoices.findByPeriod(organizationId, month.period)) return false;
    const [ledger, usage] = await Promise.all([
      storage.billingReports.ledgerSummary(organizationId, month.start, month.end),
      storage.billingReports.usageByChannel(organizationId, month.start, month.end),
    ]);
    const invoice = buildInvoice({ id: ids.next(), organizationId, period: month.period, periodStart: month.start, periodEnd: month.end, createdAt: clock.now() }, ledger, usage);
    try {
      await storage.invoices.insert(invoice);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') return false; // another worker won the race
      throw error;
    }
  }
}

function withBounds(period: string): { period: string; start: Date; end: Date } {
  const bounds = monthBounds(period);
  if (!bounds) throw new AppError('VALIDATION_ERROR', 'period must be YYYY-MM', { fieldErrors: { period: ['must be YYYY-MM'] }, formErrors: [] });
  return { period, ...bounds };
}
