/**
 * PostgreSQL array literals built by hand for bulk statements (`unnest($1::text[], ...)`): the driver's
 * generic array encoding runs two regular expressions over every element and formats every Date
 * anew, which on a 5,000-row import batch costs more Node time than the rest of the batch's SQL work.
 */

/** `{"a","b",NULL}`: a text[] literal; only `"` and `\` need escaping inside the quotes. */
export function textArrayLiteral(values: ReadonlyArray<string | null>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    parts[i] = value === null || value === undefined ? 'NULL'
      : value.includes('"') || value.includes('\\') ? `"${value.replace(/[\\"]/g, '\\$&')}"` : `"${value}"`;
  }
  return `{${parts.join(',')}}`;
}

/** A timestamptz[] literal of ISO 8601 UTC instants (each distinct instant formatted once: a batch shares its clock reading). */
export function timestampArrayLiteral(values: ReadonlyArray<Date | null>): string {
  const formatted = new Map<number, string>();
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === null || value === undefined) { parts[i] = 'NULL'; continue; }
    let text = formatted.get(value.getTime());
    if (text === undefined) formatted.set(value.getTime(), text = `"${value.toISOString()}"`);
    parts[i] = text;
  }
  return `{${parts.join(',')}}`;
}
