import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { emit, confidenceLevel, percent } from '../../harness/cli/verdicts/compare.js';
import { compareFiles, compareRuns, loadRunCsv } from '../../harness/compare/compare.js';
import { formatComparison, verdictLine } from '../../harness/compare/format.js';
import { parseCsv, readCsv, writeCsv } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { runCorpus, type RunOptions } from '../../harness/run/run.js';
import { testRunOptions } from '../helpers/run-options.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const FIX = 'test/fixtures/harness';
const TINY = `${FIX}/tiny.json`;
const CSV_FIX = 'test/fixtures/csv';
const tmp = tempDirs('csv-compare');

const quiet = () => new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;

function options(over: Partial<RunOptions>): RunOptions {
  return testRunOptions({ paths: [TINY], strategies: [`${FIX}/slow-goal.mjs`], out: join(tmp(), 'run.csv'), params: { waitMs: 1 }, log: quiet() }, over);
}

const THREE = [`${TINY}#1`, `${TINY}#2`, `${TINY}#3`];

describe('run CSVs: line endings, torn quotes, BOM', () => {
  it('resuming a CRLF file keeps CRLF, and every row reads back', async () => {
    const out = join(tmp(), 'crlf.csv');
    await runCorpus(options({ paths: THREE, out }));
    writeFileSync(out, readFileSync(out, 'utf8').replace(/\n/g, '\r\n'));
    const r = await runCorpus(options({ resume: out }));
    expect(r.tasksRun).toBe(5);
    expect(readFileSync(out, 'utf8').replace(/\r\n/g, '')).not.toContain('\n');
    expect(readCsv(out).records).toHaveLength(8);
    expect((await runCorpus(options({ resume: out }))).tasksRun).toBe(0);
  });

  it('reads a CRLF file with an LF tail (as older versions resumed it)', () => {
    const text = 'a,b\r\n1,2\r\n3,4\n5,6\n';
    expect(parseCsv(text).records).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4' },
      { a: '5', b: '6' },
    ]);
  });

  it('drops a record torn inside a quoted field, for compare, merge and resume', async () => {
    const out = join(tmp(), 'torn.csv');
    await runCorpus(options({ paths: THREE, out }));
    const torn = `${readFileSync(out, 'utf8').split('\n')[1]!.replace(/,"?\{.*$/, '')},"{""lineCache`;
    appendFileSync(out, torn);
    const back = readCsv(out);
    expect(back.records).toHaveLength(3);
    expect(back.dropped).toBe(1);
    expect(loadRunCsv(out).records).toHaveLength(3);
    expect(mergeCsvs(join(tmp(), 'merged.csv'), [out]).rows).toBe(3);
    const r = await runCorpus(options({ resume: out }));
    expect(r.tasksRun).toBe(5);
    expect(readFileSync(out, 'utf8')).not.toContain('lineCache""');
    expect(readCsv(out).records).toHaveLength(8);
    expect((await runCorpus(options({ resume: out }))).tasksRun).toBe(0);
  });

  it('ignores a byte-order mark', async () => {
    const out = join(tmp(), 'bom.csv');
    await runCorpus(options({ paths: THREE, out }));
    writeFileSync(out, `\ufeff${readFileSync(out, 'utf8')}`);
    expect(readCsv(out).columns).toEqual([...RUN_COLUMNS]);
    expect(loadRunCsv(out).records).toHaveLength(3);
    expect((await runCorpus(options({ resume: out }))).tasksRun).toBe(5);
  });
});

describe('compare: coverage, duplicates, values', () => {
  const base = loadRunCsv(`${CSV_FIX}/base.csv`);

  it('refuses two runs with no pair in common', () => {
    const header = join(tmp(), 'header.csv');
    writeCsv(header, RUN_COLUMNS, []);
    expect(() => compareFiles(`${CSV_FIX}/base.csv`, header)).toThrow(/header\.csv: shares no \(puzzle, strategy\) pair with /);
  });

  it('fails when pairs of BASE are missing from NEW, and counts both sides in every format', () => {
    const cat = base.records.filter((r) => r.puzzle_path === 'corpus/puzzles/cat.non');
    const r = compareRuns(base, { ...base, file: 'new.csv', records: cat });
    expect(r.counts.onlyInBase).toBeGreaterThan(0);
    expect(r.exitCode).toBe(1);
    expect(verdictLine(r)).toMatch(/^FAIL: \d+ pairs of BASE missing from NEW in \d+ pairs$/);
    expect(formatComparison(r, 'table')).toMatch(/pairs: \d+ compared, \d+ of BASE missing from NEW, 0 only in NEW/);
    expect(JSON.parse(formatComparison(r, 'json')).summary.only_in_base).toBe(r.counts.onlyInBase);
    expect(formatComparison(r, 'csv')).toContain('base-only');
  });

  it('drops duplicated rows before the statistics and says how many', () => {
    const doubled = { ...base, records: [...base.records, ...base.records.slice(0, 4)] };
    const r = compareRuns(base, doubled);
    expect(r.next.duplicates).toBe(4);
    expect(r.pairs.every((p) => p.next.reps === p.base.reps)).toBe(true);
    expect(formatComparison(r, 'table')).toContain('(4 duplicate rows dropped)');
  });

  it('keeps every repetition whose rep is empty: by its run and task when it has them, else as a row of its own', () => {
    const noRep = base.records.map((r) => ({ ...r, rep: '' }));
    const kept = compareRuns(base, { ...base, records: noRep });
    expect(kept.next.duplicates).toBe(0);
    expect(kept.pairs.every((p) => p.next.reps === p.base.reps && p.base.reps > 1)).toBe(true);
    // The same run and task twice is still one row.
    expect(compareRuns(base, { ...base, records: [...noRep, ...noRep.slice(0, 4)] }).next.duplicates).toBe(4);
    // Nothing to tell a repeat by: every row kept.
    const bare = noRep.map((r) => ({ ...r, task: '', run_id: '' }));
    const all = compareRuns(base, { ...base, records: bare });
    expect([all.next.duplicates, all.pairs.every((p) => p.next.reps === p.base.reps)]).toEqual([0, true]);
  });

  it('refuses negative, hex, padded and exponent times, at the file line', () => {
    const dir = tmp();
    const [first, second] = base.records;
    const why: Record<string, string> = { '-5': 'is below 0', '0x10': 'is not a plain decimal', ' 12 ': 'is not a plain decimal', Infinity: 'is not a plain decimal', '1e3': 'is not a plain decimal', '1e999': 'is not a plain decimal', '.5': 'is not a plain decimal' };
    for (const [bad, message] of Object.entries(why)) {
      const file = join(dir, 'bad.csv');
      // A line break inside a quoted field: the bad row starts on line 4, record 3.
      writeCsv(file, RUN_COLUMNS, [{ ...first!, error: 'two\nlines' }, { ...second!, time_ms: bad }]);
      expect(() => loadRunCsv(file)).toThrow(`${file}:4: column time_ms: "${bad}" ${message}`);
      expect(() => compareFiles(file, file)).toThrow(`${file}:4: column time_ms: "${bad}" ${message}`);
    }
  });

  it('--confidence: a fraction in (0, 1) or a percentage in (0%, 100%); --threshold a plain percentage', () => {
    expect(confidenceLevel('0.9')).toBe(0.9);
    expect(confidenceLevel('1%')).toBe(0.01);
    expect(confidenceLevel('0.5%')).toBe(0.005);
    expect(confidenceLevel('99.9%')).toBeCloseTo(0.999, 12);
    for (const bad of ['1.5', '95', '100%', '0', '', '0x1', ' 0.9', '-0.5']) expect(() => confidenceLevel(bad), bad).toThrow(/--confidence/);
    expect(percent('--threshold')('10%')).toBe(0.1);
    for (const bad of ['', '0x10', '-5', ' 10', '1e1']) expect(() => percent('--threshold')(bad), bad).toThrow(/--threshold/);
    const r = compareRuns(base, base, { threshold: 0.1, confidence: 0.999, strictCounters: false, minTimeMs: 1, normalize: true });
    expect(formatComparison(r, 'table')).toContain('99.9% CI');
  });

  it('--out creates a missing directory', () => {
    const out = join(tmp(), 'new', 'dir', 'cmp.txt');
    emit('hello\n', out);
    expect(readFileSync(out, 'utf8')).toBe('hello\n');
  });
});
