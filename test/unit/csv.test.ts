// Cell writing for every spreadsheet file the service writes (src/platform/csv.ts): formula
// neutralising (OWASP), CSV quoting (line breaks, quotes and every common locale's separator),
// values, the BOM, batches written to a stream, and XLSX rows through exceljs.
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvFile, csvText, neutralise, sheetRow, writeCsv } from '../../src/platform/csv.js';

describe('neutralise', () => {
  it('prefixes text starting with = + - @ tab or CR with an apostrophe', () => {
    for (const s of ['=1+1', '+A1', '-A1', '@SUM(A1)', '\t=1', '\r=1', '-', '+'])
      expect(neutralise(s)).toBe(`'${s}`);
  });

  it('leaves plain numbers, other text and the empty cell alone', () => {
    for (const s of ['-5', '+3.2', '-.5', '1e5', '-2E-3', 'a=b', 'x;=1', '', "'=1"])
      expect(neutralise(s)).toBe(s);
  });
});

describe('csvText', () => {
  const line = (cells: (string | number | Date | null)[]) => csvText([cells]);

  it('writes plain cells as they are, comma-separated, each record ending in CRLF', () => {
    expect(
      csvText([
        ['a', 'b'],
        ['c', 'd'],
      ]),
    ).toBe('a,b\r\nc,d\r\n');
  });

  it('quotes a cell holding a comma, a quote (doubled) or a line break', () => {
    expect(line(['a,b', 'say "hi"', 'two\nlines', 'cr\rhere'])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\rhere"\r\n',
    );
  });

  it("quotes a cell holding a semicolon or a tab: other locales' separators", () => {
    expect(line(['a;=1+1', 'b\t=2+2', 'c'])).toBe('"a;=1+1","b\t=2+2",c\r\n');
  });

  it('neutralises text before quoting it', () => {
    expect(line(['=1+1', '=A1,B1', '@x;y'])).toBe(`'=1+1,"'=A1,B1","'@x;y"\r\n`);
  });

  it('writes null as an empty field, numbers as JS writes them, dates as epoch milliseconds', () => {
    expect(line([null, -5, 0.25, new Date('2026-01-02T03:04:05Z'), 'x'])).toBe(
      ',-5,0.25,1767323045000,x\r\n',
    );
  });

  it('starts a file with a UTF-8 BOM only when asked', () => {
    expect(csvFile([['a']], true)).toBe('\ufeffa\r\n');
    expect(csvFile([['a']], false)).toBe('a\r\n');
  });
});

describe('writeCsv', () => {
  it('writes every batch, the BOM once at the start, then ends the stream', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    async function* batches() {
      yield [['h1', 'h2']];
      yield [
        ['=1', 'a;b'],
        [2, null],
      ];
    }
    await writeCsv(out, true, batches());
    expect(chunks.join('')).toBe(`\ufeffh1,h2\r\n'=1,"a;b"\r\n2,\r\n`);
    expect(out.writableEnded).toBe(true);
  });

  it('waits for a full stream to drain rather than buffering without bound', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const rows = Array.from({ length: 50 }, (_, i) => [[`row ${i}`, 'x'.repeat(20)]]);
    const done = writeCsv(out, false, rows);
    let settled = false;
    void done.then(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false); // nobody reads: the writer waits on 'drain'
    let text = '';
    out.on('data', (c: Buffer) => {
      text += c.toString();
    });
    await done;
    expect(text.split('\r\n')).toHaveLength(51);
  });
});

describe('sheetRow (XLSX)', () => {
  it('neutralises text cells and keeps numbers, dates and empty cells as they are', () => {
    const when = new Date('2026-01-02T03:04:05Z');
    expect(sheetRow(['=1+1', '-5', 'a;b', 7, when, null])).toEqual(["'=1+1", '-5', 'a;b', 7, when, null]);
  });

  it('gives exceljs text cells, never formulas', async () => {
    const out = new PassThrough();
    const parts: Buffer[] = [];
    out.on('data', (c: Buffer) => parts.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const ws = wb.addWorksheet('Sheet');
    ws.addRow(sheetRow(['=1+1', '@SUM(A1)', 12])).commit();
    await wb.commit();
    const read = new ExcelJS.Workbook();
    await read.xlsx.load(new Uint8Array(Buffer.concat(parts)).buffer);
    const row = read.worksheets[0].getRow(1);
    expect([1, 2, 3].map((i) => row.getCell(i).type)).toEqual([
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.String,
      ExcelJS.ValueType.Number,
    ]);
    expect(row.getCell(1).value).toBe("'=1+1");
  });
});
