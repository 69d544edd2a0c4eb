import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import type { CsvReader, CsvRow } from '../../core/ports/csv-reader.ts';

/**
 * Records handed out between two turns of the event loop. A parsed chunk's records are otherwise
 * consumed on microtasks alone, so a consumer's pending I/O (an import's previous batch committing
 * while the next one is read) would wait until the whole chunk (~17,000 rows a megabyte) is done.
 */
const YIELD_EVERY = 100;

/**
 * CsvReader on csv-parse (streaming; a UTF-8 BOM is dropped, blank lines skipped, fields trimmed).
 * A record with an unclosed quote or a broken field is reported through `on_skip` and parsing goes on.
 */
export class CsvParseReader implements CsvReader {
  async *rows(source: AsyncIterable<Uint8Array>): AsyncIterable<CsvRow> {
    const skipped: CsvRow[] = [];
    const parser = Readable.from(source, { objectMode: false }).pipe(parse({
      columns: true, bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true,
      skip_records_with_error: true, info: true, max_record_size: 64 * 1024,
      on_skip: (error: CsvError | undefined) => {
        skipped.push({ line: Number((error as { lines?: number } | undefined)?.lines ?? 0), error: error?.message ?? 'unreadable record' });
        return undefined;
      },
    }));
    let sinceYield = 0;
    for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      while (skipped.length > 0) yield skipped.shift()!;
      yield { line: item.info.lines, record: item.record };
      if (++sinceYield === YIELD_EVERY) { sinceYield = 0; await new Promise(setImmediate); }
    }
    while (skipped.length > 0) yield skipped.shift()!;
  }
}
