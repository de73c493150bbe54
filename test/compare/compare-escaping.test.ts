import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, type RunCsv } from '../../harness/compare/compare.js';
import { formatComparison, mdText } from '../../harness/compare/format.js';
import { writeCsv } from '../../harness/results/csv.js';
import type { RunRecord } from '../../harness/results/row.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('compare-escaping');
requireBuiltCli();

/** Values a hostile or damaged CSV can hold: an OSC title with a forged line, a clear screen, C1 CSI, a lone CR, HTML. */
const HOSTILE = {
  run_id: 'b\x1b]0;PWNED\x07\nFAKE: OK',
  git_commit: 'g\x1b[2J',
  puzzle_path: '<img src=https://x>\x1b[31m\rz|&',
  config: 'fast\x1b[5m',
};

/** Two repetitions of one puzzle; `over` sets fields of every row. */
function rows(status: string, over: Record<string, string> = {}): RunRecord[] {
  return [1, 2].map(
    (rep) =>
      ({
        task: '0',
        puzzle_id: 'p1',
        puzzle_path: 'p1.non',
        strategy: 'backtrack',
        config: 'fast',
        rep: String(rep),
        status,
        verified: status === 'unique' ? 'true' : '',
        time_ms: '10',
        cpu_ms: '9',
        dead_ends: '1',
        decisions: '2',
        line_solves: '3',
        node_version: 'v20.20.0',
        timeout_s: '10',
        ...over,
      }) as unknown as RunRecord,
  );
}

const csvOf = (file: string, records: RunRecord[]): RunCsv => ({ file, columns: Object.keys(records[0]!), records });
/** BASE solved, NEW timed out: a status change lists the puzzle and configuration in a table. */
const result = () => compareRuns(csvOf('base.csv', rows('unique', HOSTILE)), csvOf('new.csv', rows('timeout', HOSTILE)), { ...DEFAULT_COMPARE_OPTIONS });

/** Characters that must never reach a terminal raw: C0 (but LF between lines), DEL, C1. */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('compare: CSV values are escaped in table and md, exact in csv and json', () => {
  it('table: run ids, commits, paths and configurations shown escaped, each line one line', () => {
    const text = formatComparison(result(), 'table');
    expect(text).not.toMatch(RAW);
    expect(text).toContain('run b\\x1b]0;PWNED\\x07\\nFAKE: OK, commit g\\x1b[2J');
    expect(text).toContain('<img src=https://x>\\x1b[31m\\rz|&');
    expect(text).toContain('fast\\x1b[5m');
    expect(text.split('\n').some((l) => l.startsWith('FAKE'))).toBe(false);
  });

  it('md: control characters escaped, a lone CR keeps the row, HTML and pipes do not come alive', () => {
    const md = formatComparison(result(), 'md');
    expect(md).not.toMatch(RAW);
    expect(md).not.toContain('<img');
    const row = md.split('\n').find((l) => l.includes('&lt;img'))!;
    expect(row).toBe('| &lt;img src=https://x&gt;\\\\x1b[31m\\\\rz\\|&amp; | fast\\\\x1b[5m | unique | timeout | regression | unique → timeout |');
    expect(md).toContain('- BASE base.csv: 2 rows, run b\\\\x1b\\]0;PWNED\\\\x07\\\\nFAKE: OK, commit g\\\\x1b[2J');
  });

  it('mdText escapes what CommonMark and HTML would read', () => {
    expect(mdText('a\rb')).toBe('a\\\\rb');
    expect(mdText('<b>&</b>')).toBe('&lt;b&gt;&amp;&lt;/b&gt;');
    expect(mdText('a|b\\c')).toBe('a\\|b\\\\c');
    expect(mdText('\x9b1m')).toBe('\\\\x9b1m');
  });

  it('mdText keeps names that are markdown syntax as written: emphasis, code, strike-through and links do not come alive', () => {
    // `__proto__` rendered as a bold "proto", `*fast*` in italics, `[x](https://…)` as a link.
    expect(mdText('__proto__')).toBe('\\_\\_proto\\_\\_');
    expect(mdText('*fast* `code` ~~old~~')).toBe('\\*fast\\* \\`code\\` \\~\\~old\\~\\~');
    expect(mdText('![x](https://example.com/t.png)')).toBe('![x\\](https://example.com/t.png)');
  });

  it('csv and json keep the values exact, and stay valid', () => {
    const r = result();
    const records: Record<string, string>[] = parse(formatComparison(r, 'csv'), { columns: true });
    expect(records[0]).toMatchObject({ puzzle_path: HOSTILE.puzzle_path, strategy: HOSTILE.config });
    const json = JSON.parse(formatComparison(r, 'json'));
    expect(json.base.run_ids).toEqual([HOSTILE.run_id]);
    expect(json.pairs[0].puzzle_path).toBe(HOSTILE.puzzle_path);
  });

  it('a settings note escapes C1 controls in quoted values (JSON.stringify leaves U+009B raw)', () => {
    const r = compareRuns(csvOf('base.csv', rows('unique')), csvOf('new.csv', rows('unique', { node_version: 'v\x9b31m"\\' })), { ...DEFAULT_COMPARE_OPTIONS });
    expect(formatComparison(r, 'table')).toContain('note: base.csv and new.csv differ in node_version: "v20.20.0" vs "v\\x9b31m\\"\\\\"');
    expect(formatComparison(r, 'md')).not.toMatch(RAW);
  });

  it('the CLI: nothing raw on stdout or stderr in table and md, csv still exact', () => {
    const dir = tmp();
    const base = join(dir, 'base.csv');
    const next = join(dir, 'new.csv');
    const baseRows = rows('unique', { ...HOSTILE, node_version: 'v\x9b31m' });
    writeCsv(base, Object.keys(baseRows[0]!), baseRows);
    writeCsv(next, Object.keys(baseRows[0]!), rows('timeout', HOSTILE));
    for (const format of ['table', 'md', 'csv']) {
      const r = runCli('compare', base, next, '--format', format);
      expect(r.code, r.err).toBe(1);
      expect(r.err).not.toMatch(RAW);
      if (format === 'csv') {
        expect(r.err).toContain('"v\\x9b31m"');
        expect((parse(r.out, { columns: true }) as Record<string, string>[])[0]!.puzzle_path).toBe(HOSTILE.puzzle_path);
      } else expect(r.out).not.toMatch(RAW);
    }
  });
});
