import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import type { CsvReader, CsvRow } from '../../core/ports/csv-reader.ts';

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
    for await (const item of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      while (skipped.length > 0) yield skipped.shift()!;
      yield { line: item.info.lines, record: item.record };
    }
    while (skipped.length > 0) yield skipped.shift()!;
  }
}
