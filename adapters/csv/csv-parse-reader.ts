import { Readable } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { detectSeparator } from '../../core/domain/csv-dialect.ts';
import type { CsvReader, CsvRow } from '../../core/ports/csv-reader.ts';

/**
 * Records handed out between two turns of the event loop. A parsed chunk's records are otherwise
 * consumed on microtasks alone, so a consumer's pending I/O (an import's previous batch committing
 * while the next one is read) would wait until the whole chunk (~17,000 rows a megabyte) is done.
 */
const YIELD_EVERY = 100;

/** How far the header row is looked for (the API refuses a longer header row). */
const HEADER_PEEK_BYTES = 64 * 1024;

/**
 * Reads the source until its first line ends and detects the separator from it (core/domain/csv-dialect.ts,
 * the rule the API's header check uses); the returned source yields the peeked bytes again.
 */
async function peekSeparator(source: AsyncIterable<Uint8Array>): Promise<{ delimiter: string; source: AsyncIterable<Uint8Array> }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = []; let size = 0; let done = false;
  while (size < HEADER_PEEK_BYTES) {
    const next = await iterator.next();
    if (next.done) { done = true; break; }
    head.push(next.value); size += next.value.length;
    if (next.value.includes(10)) break;
  }
  const text = Buffer.concat(head).toString('utf8');
  const delimiter = detectSeparator(text.split('\n', 1)[0] ?? '');
  async function* replay(): AsyncIterable<Uint8Array> {
    yield* head;
    if (!done) for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { delimiter, source: replay() };
}

/**
 * CsvReader on csv-parse (streaming; a UTF-8 BOM is dropped, blank lines skipped, fields trimmed; CRLF or LF
 * line ends; comma, semicolon or tab separated, detected from the header row; double-quoted fields).
 * A record with an unclosed quote or a broken field is reported through `on_skip` and parsing goes on.
 */
export class CsvParseReader implements CsvReader {
  async *rows(source: AsyncIterable<Uint8Array>): AsyncIterable<CsvRow> {
    const skipped: CsvRow[] = [];
    const peeked = await peekSeparator(source);
    const parser = Readable.from(peeked.source, { objectMode: false }).pipe(parse({
      delimiter: peeked.delimiter, columns: true, bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true,
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
