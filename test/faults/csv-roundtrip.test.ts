import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareFiles, compareRuns, RunTable } from '../../harness/compare/compare.js';
import { comparisonChunks, comparisonJson, formatComparison } from '../../harness/compare/format.js';
import { CsvAppender, csvRecord, parseCsv, readCsvInput, scanCsvFile, writeCsv } from '../../harness/results/csv.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * RFC 4180 everywhere: whatever a field holds (quotes, commas, CR, LF, CRLF, a leading = + - @, a
 * byte-order mark, non-ASCII), every writer writes it so that every reader gives it back exactly.
 */

const tmp = tempDirs('csv-roundtrip');

/** Pieces that break naive CSV code, and ordinary text. */
const PIECES = ['\r', '\n', '\r\n', '"', '""', ',', '=', '+', '-', '@', ' ', '\t', 'é', '€', '😀', '\ufeff', 'a', 'B', '1', '.', '=SUM(A1:A2)', '@cmd', '-1+1'];
const field = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join(''));
const records = (width: number) => fc.array(fc.array(field, { minLength: width, maxLength: width }), { maxLength: 8 });
const table = fc.integer({ min: 1, max: 5 }).chain((width) => fc.tuple(fc.constant(width), records(width)));

const columnsOf = (width: number) => Array.from({ length: width }, (_x, i) => `c${i}`);
const asObjects = (columns: string[], rows: string[][]) => rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]!])));

/** Every record of a file through the chunked reader, with `chunkBytes` at a time. */
function scanned(file: string, chunkBytes?: number): string[][] {
  const rows: string[][] = [];
  scanCsvFile(file, (row) => rows.push(row.fields.slice()), chunkBytes ? { chunkBytes } : {});
  return rows;
}

describe('every writer, every reader: fields come back exactly', () => {
  it('csvRecord (LF and CRLF) through parseCsv and the chunked file reader, cut into chunks of any size', () => {
    const file = join(tmp(), 'p.csv');
    fc.assert(
      fc.property(table, fc.constantFrom('\n', '\r\n'), fc.integer({ min: 1, max: 64 }), ([width, rows], eol, chunk) => {
        const columns = columnsOf(width);
        const text = [columns, ...rows].map((r) => csvRecord(r, eol)).join('');
        expect(parseCsv(text).records).toEqual(asObjects(columns, rows));
        writeFileSync(file, text);
        expect(scanned(file, chunk)).toEqual(rows);
        expect(readCsvInput(file).records).toEqual(asObjects(columns, rows));
      }),
      { numRuns: 400 },
    );
  });

  it('writeCsv, and CsvAppender new, resumed and resumed in CRLF', () => {
    const dir = tmp();
    fc.assert(
      fc.property(table, table, ([width, rows], [, more]) => {
        const columns = columnsOf(width);
        const more2 = more.map((r) => columns.map((_c, i) => r[i] ?? ''));
        const a = join(dir, 'a.csv');
        writeCsv(a, columns, asObjects(columns, rows));
        expect(readCsvInput(a).records).toEqual(asObjects(columns, rows));
        const b = join(dir, 'b.csv');
        writeFileSync(b, [columns, ...rows].map((r) => csvRecord(r, '\r\n')).join(''));
        const appender = new CsvAppender(b, columns, true);
        for (const r of more2) appender.write(r);
        appender.close();
        expect(readCsvInput(b).records).toEqual(asObjects(columns, [...rows, ...more2]));
        // A CRLF file goes on in CRLF: no bare LF outside the values.
        const text = readFileSync(b, 'utf8');
        expect(text.endsWith('\r\n') || more2.length + rows.length === 0).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('merge reproduces every field byte for byte', () => {
    const dir = tmp();
    const base = { run_id: 'r', task: '0', puzzle_id: 'id', rep: '1', status: 'unique', strategy: 's' };
    fc.assert(
      fc.property(fc.array(fc.tuple(field, field, field, field), { minLength: 1, maxLength: 6 }), (values) => {
        const rows = values.map(([path, title, extra, error], i) => ({ ...base, task: String(i), rep: String(i + 1), puzzle_path: path, title, extra, error }));
        const input = join(dir, 'in.csv');
        writeCsv(input, RUN_COLUMNS, rows);
        const out = join(dir, 'out.csv');
        expect(mergeCsvs(out, [input])).toEqual({ rows: rows.length, duplicates: 0 });
        expect(readCsvInput(out).records).toEqual(readCsvInput(input).records);
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(input, 'utf8'));
      }),
      { numRuns: 150 },
    );
  });

  it("compare's csv format", () => {
    fc.assert(
      fc.property(field, field, (path, config) => {
        const rows = [1, 2].map((rep) => ({ puzzle_id: 'id', puzzle_path: path, strategy: 's', config, rep: String(rep), status: 'unique', verified: 'true', time_ms: '5', dead_ends: '0', decisions: '0', line_solves: '1' }));
        const csv = { file: 'm.csv', columns: Object.keys(rows[0]!), records: rows };
        const out = parseCsv(formatComparison(compareRuns(csv, csv), 'csv')).records;
        expect(out.map((r) => [r.puzzle_path, r.strategy])).toEqual([[path, config || 's']]);
      }),
      { numRuns: 150 },
    );
  });

  it("compare's json format, written a pair at a time, is the whole document", () => {
    const r = compareFiles('test/fixtures/csv/base.csv', 'test/fixtures/csv/new.csv');
    expect([...comparisonChunks(r, 'json')].length).toBeGreaterThan(3);
    expect(formatComparison(r, 'json')).toBe(`${JSON.stringify(comparisonJson(r), null, 2)}\n`);
    const none = { ...r, onlyInBase: [], onlyInNew: [] };
    expect(formatComparison(none, 'json')).toBe(`${JSON.stringify(comparisonJson(none), null, 2)}\n`);
  });

  it('a bare CR or LF is quoted even in a CRLF file (it was written bare and split the row)', () => {
    const file = join(tmp(), 'cr.csv');
    writeFileSync(file, 'a,b\r\n');
    const appender = new CsvAppender(file, ['a', 'b'], true);
    appender.write(['x\ry', 'z\nw']);
    appender.close();
    expect(readFileSync(file, 'utf8')).toBe('a,b\r\n"x\ry","z\nw"\r\n');
    expect(readCsvInput(file).records).toEqual([{ a: 'x\ry', b: 'z\nw' }]);
  });

  it('formula-leading values are written and read as they are, never altered', () => {
    const values = ['=1+1', '+cmd', '-2', '@SUM(A1)', '=HYPERLINK("http://x","y")'];
    const line = csvRecord(values);
    expect(line).toBe('=1+1,+cmd,-2,@SUM(A1),"=HYPERLINK(""http://x"",""y"")"\n');
    expect(parseCsv(`${csvRecord(['a', 'b', 'c', 'd', 'e'])}${line}`).records[0]).toEqual({ a: values[0], b: values[1], c: values[2], d: values[3], e: values[4] });
  });

  it('a lone empty field is written "" (a blank line would be skipped), and a table reads it', () => {
    expect(csvRecord([''])).toBe('""\n');
    expect(parseCsv('a\n""\n\n').records).toEqual([{ a: '' }]);
    expect(RunTable.fromRecords('m', ['puzzle_id', 'status'], [{ puzzle_id: '', status: 'unique' }]).str('puzzle_id', 0)).toBe('');
  });
});
