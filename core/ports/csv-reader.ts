/** One CSV record keyed by header name (as written in the file), or why the record could not be read. */
export type CsvRow =
  | { line: number; record: Record<string, string> }
  | { line: number; error: string };

/**
 * Streams CSV text into records, header row first. Reads incrementally (never the whole input in
 * memory). A malformed record is yielded as an error and reading continues with the next one.
 */
export interface CsvReader {
  rows(source: AsyncIterable<Uint8Array>): AsyncIterable<CsvRow>;
}
