/**
 * The CSV dialect of a contact file, read from its header row: the separator (comma, semicolon or
 * tab, whichever occurs most outside double quotes; comma on a tie or a one-column header), with a
 * UTF-8 BOM, CRLF line ends and double-quoted names ("" for a quote) understood. The API's header
 * check and the worker's row reader both use it, so they always split a file the same way.
 */
export type CsvSeparator = ',' | ';' | '\t';

export const SEPARATOR_NAMES: Record<CsvSeparator, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

/** The header line without a BOM and a trailing CR. */
function clean(line: string): string {
  return line.replace(/^\uFEFF/, '').replace(/\r$/, '');
}

export function detectSeparator(headerLine: string): CsvSeparator {
  const counts: Record<CsvSeparator, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of clean(headerLine)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch] += 1;
  }
  let best: CsvSeparator = ',';
  for (const sep of [';', '\t'] as const) if (counts[sep] > counts[best]) best = sep;
  return best;
}

/** The header's column names, split on `separator` outside quotes, unquoted and trimmed. */
export function splitHeader(headerLine: string, separator: CsvSeparator): string[] {
  const names: string[] = [];
  let current = ''; let quoted = false;
  const line = clean(headerLine);
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i]!;
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') { current += '"'; i += 1; } else quoted = !quoted;
    } else if (ch === separator && !quoted) { names.push(current.trim()); current = ''; } else current += ch;
  }
  names.push(current.trim());
  return names;
}
