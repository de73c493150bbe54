import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFiles, loadRunTable } from '../../harness/compare/compare.js';
import { writeReport } from '../../harness/report/report.js';
import { CsvAppender, csvRecord, parseCsv, readCsvInput, scanCsvFile, writeCsv } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * A malformed record anywhere in a CSV is an error naming its line (exit 2 from the CLI), never a
 * row dropped without a word; the one exception is the torn last record a killed writer leaves.
 */

const tmp = tempDirs('csv-malformed');
requireBuiltCli();

const { records: BASE } = readCsvInput('test/fixtures/csv/base.csv');

/** A run CSV of the fixture's rows (every run column) with `lines` (raw text) put after record `at`; returns its path. */
function withLines(at: number, ...lines: string[]): string {
  const file = join(tmp(), 'run.csv');
  writeCsv(file, RUN_COLUMNS, BASE);
  const text = readFileSync(file, 'utf8').split('\n');
  text.splice(at + 1, 0, ...lines);
  writeFileSync(file, text.join('\n'));
  return file;
}

const goodLine = (over: Record<string, string> = {}) => csvRecord(RUN_COLUMNS.map((c) => ({ ...BASE[0]!, ...over })[c] ?? '')).trimEnd();

describe('a malformed record in the middle is FILE:LINE, for every reader', () => {
  const cases: [string, string, string][] = [
    ['an extra field', `${goodLine()},extra`, `40 fields where the header has ${RUN_COLUMNS.length}`],
    ['a missing field', goodLine().replace(/,[^,]*$/, ''), `38 fields where the header has ${RUN_COLUMNS.length}`],
    ['a quote inside an unquoted field', goodLine({ title: 'x' }).replace(',x,', ',x"y,'), 'a quote inside a field that does not start with one (quote the field and double its quotes)'],
    ['text after a closing quote', goodLine({ title: 'x' }).replace(',x,', ',"x"y,'), 'a closing quote must be followed by a comma or the end of the line'],
  ];
  for (const [what, line, message] of cases)
    it(what, () => {
      // Header on line 1, records on 2…: the bad one goes after the third record, on line 5.
      const file = withLines(3, line);
      const expected = `${file}:5: ${message}`;
      expect(() => readCsvInput(file)).toThrow(expected);
      expect(() => loadRunTable(file)).toThrow(expected);
      expect(() => compareFiles(file, file)).toThrow(expected);
      expect(() => mergeCsvs(join(tmp(), 'm.csv'), [file])).toThrow(expected);
      for (const args of [['compare', file, file], ['merge', join(tmp(), 'm.csv'), file], ['report', file, '--out', join(tmp(), 'r.html')]]) {
        const r = runCli(...args);
        expect([r.code, r.err], args[0]).toEqual([2, `${expected}\n`]);
      }
    });

  it('a resume refuses it too, before touching the file', () => {
    const file = withLines(3, `${goodLine()},extra`);
    const before = readFileSync(file, 'utf8');
    expect(() => new CsvAppender(file, RUN_COLUMNS, true)).toThrow(`${file}:5: cannot resume: 40 fields`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a quote never closed is torn only at the end of the file and within 20 lines', () => {
    const text = `a,b\n1,2\n3,"${'x\n'.repeat(25)}`;
    expect(() => parseCsv(text)).toThrow('a quoted field is never closed');
    expect(parseCsv(`a,b\n1,2\n3,"${'x\n'.repeat(5)}`)).toMatchObject({ records: [{ a: '1', b: '2' }], dropped: 1 });
  });

  it('a stray quote that is never closed, with whole records after it, is FILE:LINE, not a torn tail: no reader drops them, --resume keeps the file', () => {
    const file = join(tmp(), 'stray30.csv');
    // Thirty rows without quoted fields, as a run of a strategy with no params or counters writes them.
    const rows = Array.from({ length: 30 }, (_, i) => ({ ...BASE[0]!, task: String(i), rep: '1', puzzle_id: `${i}`.padStart(12, '0'), title: `T${i}`, params: '{}', extra: '{}' }));
    writeCsv(file, RUN_COLUMNS, rows);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines[20]).toContain(',T19,');
    lines[20] = lines[20]!.replace(',T19,', ',"T19,'); // row 20, file line 21
    writeFileSync(file, lines.join('\n'));
    const before = readFileSync(file, 'utf8');
    const expected = `${file}:21: a quoted field is never closed`;
    expect(() => readCsvInput(file)).toThrow(expected);
    expect(() => mergeCsvs(join(tmp(), 'm.csv'), [file])).toThrow(expected);
    expect(() => loadRunTable(file)).toThrow(expected);
    expect(() => new CsvAppender(file, RUN_COLUMNS, true)).toThrow(`${file}:21: cannot resume: a quoted field is never closed`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const r = runCli('merge', join(tmp(), 'm.csv'), file);
    expect([r.code, r.err]).toEqual([2, expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:21: a quoted field is never closed[^\n]*\n$`))]);
    // The same quote in the last record, with nothing after it, is what a killed writer leaves.
    writeFileSync(file, `${lines.slice(0, 21).join('\n')}\n`);
    expect(readCsvInput(file)).toMatchObject({ dropped: 1 });
    expect(readCsvInput(file).records).toHaveLength(19);
  });

  it('a header naming a column twice', () => {
    const file = join(tmp(), 'twice.csv');
    writeFileSync(file, 'a,b,a\n1,2,3\n');
    expect(() => readCsvInput(file)).toThrow(`${file}:1: not a run CSV (column "a" appears twice in the header)`);
  });

  it('a run CSV whose lines end in CR alone (a Mac CSV of old): one line saying so, from every reader', () => {
    const file = withLines(0).replace(/run\.csv$/, 'mac.csv');
    writeFileSync(file, readFileSync(withLines(0), 'utf8').replace(/\n/g, '\r'));
    const message = `${file}:1: its lines end in CR alone (as older Mac programs save CSV): save it with LF or CRLF line ends`;
    expect(() => readCsvInput(file)).toThrow(message);
    for (const args of [['report', file], ['compare', file, 'test/fixtures/csv/base.csv'], ['merge', join(tmp(), 'm.csv'), file]]) {
      const r = runCli(...args);
      expect([r.code, r.err]).toEqual([2, expect.stringContaining(message)]);
    }
  });

  it('binary data given as a run CSV: one line saying so, not that its lines end in CR alone', () => {
    // The head of a zip file: a NUL and a lone CR in its first line.
    const file = join(tmp(), 'binary.csv');
    writeFileSync(file, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x0d, 0x00, 0x08, 0x00, 0x0a, 0x00, 0x2c, 0x0d]));
    const message = `${file}:1: not a text file (binary data)`;
    expect(() => readCsvInput(file)).toThrow(message);
    for (const args of [['report', file], ['compare', file, 'test/fixtures/csv/base.csv'], ['merge', join(tmp(), 'm.csv'), file], ['history', file]]) {
      const r = runCli(...args);
      expect([r.code, r.err.split('\n')[0]]).toEqual([2, expect.stringContaining(message)]);
    }
  });
});

describe('the torn last record of a killed run is dropped silently', () => {
  it('without its line end and short of fields, or cut inside a quoted field: compare, merge and report read the rest', async () => {
    const full = withLines(0);
    const text = readFileSync(full, 'utf8');
    const cut = (k: number) => text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1 + k);
    const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    // Inside the quoted `extra`, and just before its closing comma.
    for (const k of [last.indexOf('"{') + 5, last.lastIndexOf(',') - 1, 10]) {
      const file = join(tmp(), 'torn.csv');
      writeFileSync(file, cut(k));
      const read = readCsvInput(file);
      expect([read.records.length, read.dropped]).toEqual([BASE.length - 1, 1]);
      expect(loadRunTable(file).size).toBe(BASE.length - 1);
      expect(mergeCsvs(join(tmp(), 'm.csv'), [file]).rows).toBe(BASE.length - 1);
      expect(compareFiles(full, file).counts.pairs).toBeGreaterThan(0);
      await writeReport(file, join(tmp(), 'r.html'));
    }
  });

  it('a last record with every field but no line end is kept (a file saved without a final line break)', () => {
    expect(parseCsv('a,b\n1,2\n3,4').records).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
    ]);
  });

  it('any cut of a CSV reads without error, as the records before the cut; --resume cuts the torn one off and appends after it', () => {
    const dir = tmp();
    // Four columns: a cell of at most four pieces cannot hold a whole line of a record (three commas
    // between two line breaks), which a reader could not tell from a stray quote before whole records.
    const COLUMNS = ['a', 'b', 'c', 'd'];
    const cell = fc.array(fc.constantFrom('a', '1', ',', '"', '\n', '\r\n', 'é', ' '), { maxLength: 4 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 6 }), fc.double({ min: 0, max: 1, noNaN: true }), (rows, where) => {
        const text = [COLUMNS, ...rows].map((r) => csvRecord(r)).join('');
        const bytes = Buffer.from(text, 'utf8');
        const header = Buffer.byteLength(csvRecord(COLUMNS));
        const at = header + Math.floor(where * (bytes.length - header));
        const file = join(dir, 'cut.csv');
        writeFileSync(file, bytes.subarray(0, at));
        const read: string[][] = [];
        scanCsvFile(file, (r) => read.push(r.fields.slice()), { chunkBytes: 7 });
        // Whole records come back as written; only the last may be one whose last field the cut shortened.
        expect(read.length).toBeLessThanOrEqual(rows.length);
        read.forEach((r, i) => {
          if (i < read.length - 1) expect(r).toEqual(rows[i]);
          else expect([...r.slice(0, 3), rows[i]![3]!.startsWith(r[3]!)]).toEqual([...rows[i]!.slice(0, 3), true]);
        });
        const appender = new CsvAppender(file, COLUMNS, true);
        appender.write(['x', 'y', 'z', 'w']);
        appender.close();
        const again = readCsvInput(file).records;
        expect(again.map((r) => [r.a, r.b, r.c, r.d])).toEqual([...read, ['x', 'y', 'z', 'w']]);
      }),
      { numRuns: 500 },
    );
  });

  it('--resume cuts off a torn record that has no quote, which used to stay as a malformed line in the middle', () => {
    const file = join(tmp(), 'short.csv');
    writeFileSync(file, 'a,b,c\n1,2,3\n4,5');
    const appender = new CsvAppender(file, ['a', 'b', 'c'], true);
    appender.write([7, 8, 9]);
    appender.close();
    expect(readFileSync(file, 'utf8')).toBe('a,b,c\n1,2,3\n7,8,9\n');
  });
});

describe('what every reader accepts', () => {
  it('CRLF and LF mixed, blank lines, a byte-order mark, CR and LF inside quotes kept as written', () => {
    expect(parseCsv('\ufeffa,b\r\n\r\n"x\r\ny",1\n\n"p\nq","r\rs"\r\n').records).toEqual([
      { a: 'x\r\ny', b: '1' },
      { a: 'p\nq', b: 'r\rs' },
    ]);
  });

  it('text that is not UTF-8 is read as Windows-1252, and merge writes it back as UTF-8', () => {
    const file = join(tmp(), 'cp1252.csv');
    const utf8 = join(tmp(), 'u.csv');
    writeCsv(utf8, RUN_COLUMNS, [{ ...BASE[0]!, title: 'Café “quoted” – €' }]);
    // The same file in Windows-1252: é is 0xE9, the curly quotes 0x93 0x94, the dash 0x96, the euro 0x80.
    const bytes = Buffer.from(readFileSync(utf8, 'utf8').replace('Café “quoted” – €', 'Caf\u00e9 \u0093quoted\u0094 \u0096 \u0080'), 'latin1');
    writeFileSync(file, bytes);
    expect(readCsvInput(file).records[0]!.title).toBe('Café “quoted” – €');
    const out = join(tmp(), 'm.csv');
    mergeCsvs(out, [file]);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(utf8, 'utf8'));
  });
});
