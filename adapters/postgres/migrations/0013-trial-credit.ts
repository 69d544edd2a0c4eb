import type { Migration } from './migration.ts';

/** TRIAL_CREDIT ledger entries: the credit a new organization starts with (docs/billing.md, "Trial credit"). */
export const trialCredit: Migration = {
  id: '0013-trial-credit',
  statements: [
    'alter table ledger_entries drop constraint ledger_entries_kind_check',
    `alter table ledger_entries add constraint ledger_entries_kind_check check (kind in ('TOP_UP','DEBIT','REFUND','ADJUSTMENT','TRIAL_CREDIT'))`,
  ],
};
