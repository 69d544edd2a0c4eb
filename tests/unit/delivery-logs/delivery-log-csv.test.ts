import { expect } from 'chai';
import { csvField, csvRecord, formatGhs } from '../../../core/use-cases/delivery-logs/delivery-log-csv.ts';

describe('delivery log CSV fields', () => {
  it('leaves plain values alone and quotes commas, quotes, CR and LF the RFC 4180 way', () => {
    expect(csvField('DELIVERED')).to.equal('DELIVERED');
    expect(csvField('')).to.equal('');
    expect(csvField('a,b')).to.equal('"a,b"');
    expect(csvField('say "hi"')).to.equal('"say ""hi"""');
    expect(csvField('line\nbreak')).to.equal('"line\nbreak"');
    expect(csvField('line\r\nbreak')).to.equal('"line\r\nbreak"');
  });

  it('prefixes a quote to cells starting with = + - @ tab CR or a quote, phone numbers included, and only then quotes', () => {
    expect(csvField('=1+1')).to.equal("'=1+1");
    expect(csvField('+233241234567')).to.equal("'+233241234567");
    expect(csvField('-10')).to.equal("'-10");
    expect(csvField('@SUM(A1:A2)')).to.equal("'@SUM(A1:A2)");
    expect(csvField('\t=1')).to.equal("'\t=1");
    expect(csvField('\r=1')).to.equal('"\'\r=1"');
    expect(csvField('=HYPERLINK("x","y")')).to.equal('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvField('a=b')).to.equal('a=b');
    expect(csvField("'quoted")).to.equal("''quoted");
    expect(csvField("'=1")).to.equal("''=1");
  });

  it('can be undone exactly by dropping one leading quote from every cell that has one', () => {
    const values = ['=1', "'=1", "''", "'", '+233241234567', 'plain', "it's"];
    const undone = values.map((value) => { const cell = csvField(value).replace(/^"|"$/g, '').replaceAll('""', '"'); return cell.startsWith("'") ? cell.slice(1) : cell; });
    expect(undone).to.deep.equal(values);
  });

  it('ends each record with CRLF', () => {
    expect(csvRecord(['a', 'b,c', '+1'])).to.equal('a,"b,c",\'+1\r\n');
  });

  it('formats pesewas as GHS with exactly two decimals', () => {
    expect([0, 5, 30, 100, 1230, 123456789].map(formatGhs)).to.deep.equal(['0.00', '0.05', '0.30', '1.00', '12.30', '1234567.89']);
  });
});
