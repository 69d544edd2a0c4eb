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
});
