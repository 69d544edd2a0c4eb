export type ContactImportStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

/** At most this many per-row errors are kept (errorCount keeps counting). */
export const IMPORT_ERRORS_KEPT = 100;

export interface ImportRowError {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  reason: string;
}

/** A CSV import job (docs/contacts.md). Counters move forward batch by batch in the worker. */
export interface ContactImport {
  id: string;
  organizationId: string;
  status: ContactImportStatus;
  fileName: string | null;
  sizeBytes: number;
  /** Line breaks counted at upload: an estimate of data rows until the file is processed (then exact). */
  totalRows: number;
  rowsDone: number;
  created: number;
  updated: number;
  skipped: number;
  errorCount: number;
  errors: ImportRowError[];
  failureReason: string | null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

export function contactImportView(job: ContactImport) {
  return {
    id: job.id, status: job.status, fileName: job.fileName, sizeBytes: job.sizeBytes,
    progress: { rowsDone: job.rowsDone, totalRows: Math.max(job.totalRows, job.rowsDone) },
    created: job.created, updated: job.updated, skipped: job.skipped, errorCount: job.errorCount, errors: job.errors,
    failureReason: job.failureReason, createdAt: job.createdAt.toISOString(), updatedAt: job.updatedAt.toISOString(),
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}
