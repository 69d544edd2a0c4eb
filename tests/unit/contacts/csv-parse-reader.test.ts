import { expect } from 'chai';
import { CsvParseReader } from '../../../adapters/csv/csv-parse-reader.ts';
import type { CsvRow } from '../../../core/ports/csv-reader.ts';

async function read(text: string, piece = 5): Promise<CsvRow[]> {
  async function* source() { const all = new TextEncoder().encode(text); for (let i = 0; i < all.length; i += piece) yield all.slice(i, i + piece); }
  const rows: CsvRow[] = [];
  for await (const row of new CsvParseReader().rows(source())) rows.push(row);
  return rows;
}

describe('CsvParseReader (csv-parse adapter of the CsvReader port)', () => {
  it('reads records keyed by header across chunk boundaries: BOM, quotes, CRLF, blank lines, trimmed cells', async () => {
    const rows = await read('\uFEFFname,phone\r\n"Mensah, Ama", 024 1\r\n\r\n"Kofi ""K""",055\r\n');
    expect(rows).to.deep.equal([
      { line: 2, record: { name: 'Mensah, Ama', phone: '024 1' } },
      { line: 4, record: { name: 'Kofi "K"', phone: '055' } },
    ]);
  });

  it('tolerates short and long rows (missing cells are absent)', async () => {
    const rows = await read('a,b\n1\n2,3,4\n');
    expect(rows.map((r) => ('record' in r ? r.record : r))).to.deep.equal([{ a: '1' }, { a: '2', b: '3' }]);
  });

  it('reports an unreadable record as an error instead of throwing', async () => {
    const rows = await read('a,b\n1,2\n"open,3\n');
    expect(rows.some((r) => 'error' in r)).to.equal(true);
    expect(rows.find((r) => 'record' in r)).to.deep.equal({ line: 2, record: { a: '1', b: '2' } });
  });

  it('detects a semicolon or tab separator from the header row (issue 35); a comma inside a semicolon file is data', async () => {
    const semicolon = await read('\uFEFFfirstName;phone;city\r\n"Mensah; Ama";0241110001;Accra, Osu\r\n', 3);
    expect(semicolon).to.deep.equal([{ line: 2, record: { firstName: 'Mensah; Ama', phone: '0241110001', city: 'Accra, Osu' } }]);
    const tab = await read('phone\temail\n0241110002\tama@x.test\n');
    expect(tab).to.deep.equal([{ line: 2, record: { phone: '0241110002', email: 'ama@x.test' } }]);
  });
});

describe('CSV dialect (core/domain/csv-dialect.ts): the one rule for the header check and the rows', () => {
  it('picks the separator occurring most outside quotes, comma on a tie; splits quoted names', async () => {
    const { detectSeparator, splitHeader } = await import('../../../core/domain/csv-dialect.ts');
    expect(detectSeparator('phone')).to.equal(',');
    expect(detectSeparator('\uFEFFname;phone\r')).to.equal(';');
    expect(detectSeparator('"a;b;c",phone')).to.equal(',');
    expect(detectSeparator('a\tb\tc,d')).to.equal('\t');
    expect(splitHeader('\uFEFF"First ""Name""";Phone\r', ';')).to.deep.equal(['First "Name"', 'Phone']);
  });
});
