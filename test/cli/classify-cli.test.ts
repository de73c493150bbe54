import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../harness/results/csv.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const CLI = 'dist/harness/cli.js';
const DANCER = 'corpus/puzzles/webpbn/1.non';
const GCHQ = 'corpus/puzzles/seeds/gchq-2015.non';
const NO_SOLUTION = 'test/fixtures/classify/no-solution.non';
const BAD = 'test/fixtures/classify/bad-totals.non';
/** A tournament puzzle whose search takes many seconds: certainly not finished within a fraction of one. */
const HARD = 'corpus/puzzles/tournament/taai2011-questions.txt#395';

const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, 'classify', '-q', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const dir = tempDirs('classify')();
beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json)`);
});

/** Checks that every tag of an XML text is closed in order (enough to catch truncated or mangled SVG). */
function wellFormed(xml: string): boolean {
  const stack: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w:-]*)[^<>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    if (selfClosing) continue;
    if (closing) {
      if (stack.pop() !== name) return false;
    } else stack.push(name!);
  }
  return stack.length === 0 && xml.trimStart().startsWith('<svg') && !/<(?![/A-Za-z])/.test(xml);
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('nonobench classify', () => {
  it('writes a CSV with the documented columns and one row per puzzle, and counts per class', () => {
    const csv = join(dir, 'all.csv');
    const { code, out } = run(DANCER, GCHQ, NO_SOLUTION, '--out', csv, '--workers', '2');
    expect(code).toBe(0);
    const { columns, records } = readCsv(csv);
    for (const c of [
      'puzzle_id',
      'puzzle_path',
      'width',
      'height',
      'class',
      'line_resolved_pct',
      'dead_ends',
      'max_depth',
      'solutions_found',
      'overlap_resolved_pct',
      'probe_resolved_pct',
      'differing_cells',
      'time_ms',
    ])
      expect(columns).toContain(c);
    const byPath = Object.fromEntries(records.map((r) => [r.puzzle_path, r]));
    expect(byPath[DANCER]).toMatchObject({ class: 'overlap-solvable', line_resolved_pct: '100', solutions_found: '1', dead_ends: '0' });
    expect(byPath[GCHQ]).toMatchObject({ class: 'multiple-solutions', solutions_found: '2', width: '25', height: '25' });
    expect(Number(byPath[GCHQ]!.differing_cells)).toBeGreaterThan(0);
    expect(Number(byPath[GCHQ]!.line_resolved_pct)).toBeLessThan(100);
    expect(byPath[NO_SOLUTION]).toMatchObject({ class: 'no-solution', solutions_found: '0' });
    expect(out).toMatch(/^overlap-solvable\s+1\s/m);
    expect(out).toMatch(/^multiple-solutions\s+1\s/m);
    expect(out).toMatch(/^no-solution\s+1\s/m);
    expect(out).toMatch(/^total\s+3\s/m);
  });

  it('--only lists just that class, in the CSV too, and shows where the two solutions differ', () => {
    const csv = join(dir, 'only.csv');
    const { code, out } = run(DANCER, GCHQ, NO_SOLUTION, '--only', 'multiple-solutions', '--out', csv, '--workers', '1');
    expect(code).toBe(0);
    const { records } = readCsv(csv);
    expect(records.map((r) => r.puzzle_path)).toEqual([GCHQ]);
    const listing = out.slice(out.indexOf('multiple-solutions puzzles'));
    expect(listing).toContain(GCHQ);
    expect(listing).not.toContain(DANCER);
    expect(listing).not.toContain(NO_SOLUTION);
    // One listed puzzle: its pictures are printed, with the differing cells as (row, column) pairs.
    const cells = /differing cells \(row, column\): (.*)/.exec(out)![1]!;
    const pairs = [...cells.matchAll(/\((\d+), (\d+)\)/g)];
    expect(pairs.length).toBe(Number(records[0]!.differing_cells));
    for (const [, row, column] of pairs) {
      expect(Number(row)).toBeGreaterThanOrEqual(1);
      expect(Number(column)).toBeLessThanOrEqual(25);
    }
  });

  it('--svg draws the stalled grid with the unknown cells marked, and the first solution with the differing cells marked', () => {
    const csv = join(dir, 'svg.csv');
    const svgDir = join(dir, 'svg');
    const { code } = run(DANCER, GCHQ, NO_SOLUTION, '--out', csv, '--svg', svgDir, '--workers', '0');
    expect(code).toBe(0);
    const byPath = Object.fromEntries(readCsv(csv).records.map((r) => [r.puzzle_path, r]));
    // Dancer is finished by line logic: nothing to draw.
    expect(readdirSync(svgDir).sort()).toEqual(['classify-no-solution-stalled.svg', 'seeds-gchq-2015-solutions.svg', 'seeds-gchq-2015-stalled.svg']);
    for (const f of readdirSync(svgDir)) expect(wellFormed(readFileSync(join(svgDir, f), 'utf8'))).toBe(true);

    const stalled = readFileSync(join(svgDir, 'seeds-gchq-2015-stalled.svg'), 'utf8');
    const unknown = Math.round(625 * (1 - Number(byPath[GCHQ]!.line_resolved_pct) / 100));
    expect(count(stalled, 'class="unknown"')).toBe(unknown);
    expect(count(stalled, 'class="mark"')).toBe(unknown);
    const solution = readFileSync(join(svgDir, 'seeds-gchq-2015-solutions.svg'), 'utf8');
    expect(count(solution, 'class="unknown"')).toBe(0);
    expect(count(solution, 'class="mark"')).toBe(Number(byPath[GCHQ]!.differing_cells));
    const impossible = readFileSync(join(svgDir, 'classify-no-solution-stalled.svg'), 'utf8');
    expect(count(impossible, 'class="mark"')).toBe(count(impossible, 'class="unknown"'));
    expect(count(impossible, 'class="mark"')).toBeGreaterThan(0);
  });

  it('--svg names the pictures of a puzzle with a long folder and file name within the 255 bytes a file name may take', () => {
    // Each name fits on its own (200 bytes); their stem, joined, did not: ENAMETOOLONG, exit 2, no picture.
    const long = join(dir, 'd'.repeat(200));
    mkdirSync(long, { recursive: true });
    const puzzle = join(long, `${'f'.repeat(200)}.non`);
    copyFileSync(NO_SOLUTION, puzzle);
    const svgDir = join(dir, 'svg-long');
    const { code, err } = run(puzzle, '--out', join(dir, 'long.csv'), '--svg', svgDir, '--workers', '0');
    expect([code, err]).toEqual([0, '']);
    const files = readdirSync(svgDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^d+_f+-[0-9a-f]{12}-stalled\.svg$/);
    expect(Buffer.byteLength(files[0]!)).toBeLessThanOrEqual(255);
    expect(wellFormed(readFileSync(join(svgDir, files[0]!), 'utf8'))).toBe(true);
  });

  it('reports a bad file on stderr as FILE:LINE: message, classifies the others and exits 2', () => {
    const csv = join(dir, 'bad.csv');
    const { code, err } = run(BAD, DANCER, '--out', csv, '--workers', '1');
    expect(code).toBe(2);
    const lines = err.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${BAD.replace(/[.]/g, '\\.')}:\\d+: .+`));
    expect(readCsv(csv).records.map((r) => [r.puzzle_path, r.class])).toEqual([[DANCER, 'overlap-solvable']]);
  });

  it('leaves an existing --out and --html as they were when no puzzle could be read (a typo in the path), exit 2', () => {
    const csv = join(dir, 'earlier.csv');
    const html = join(dir, 'earlier.html');
    writeFileSync(csv, 'an earlier classification\n');
    writeFileSync(html, '<p>an earlier page</p>\n');
    const { code, err } = run(join(dir, 'no-such-puzzle.non'), '--out', csv, '--html', html, '--workers', '1');
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toEqual([expect.stringMatching(/no-such-puzzle\.non:0: cannot read the file/)]);
    expect([readFileSync(csv, 'utf8'), readFileSync(html, 'utf8')]).toEqual(['an earlier classification\n', '<p>an earlier page</p>\n']);
    // A file that was not there is said to be not made, not "left as it was".
    const absent = join(dir, 'absent.csv');
    expect(run(join(dir, 'no-such-puzzle.non'), '--out', absent, '--workers', '1').out).toContain(`nothing written, ${absent} not made`);
    expect(existsSync(absent)).toBe(false);
  });

  it('puts a puzzle that is not finished within the time limit in the unknown class', () => {
    const csv = join(dir, 'timeout.csv');
    const { code } = run(HARD, '--timeout', '0.3', '--out', csv, '--workers', '1');
    expect(code).toBe(0);
    const [row] = readCsv(csv).records;
    expect(row).toMatchObject({ class: 'unknown', timeout_s: '0.3' });
    // Stopped before line logic ended: the listing says so, not that the clues contradict each other.
    const wide = join(dir, 'wide.non');
    const ones = Array(50).fill(1).join(',');
    writeFileSync(wide, `width 200\nheight 200\n\nrows\n${`${ones}\n`.repeat(200)}\ncolumns\n${`${ones}\n`.repeat(200)}`);
    const early = run(wide, '--timeout', '0.001', '--only', 'unknown', '--out', join(dir, 'early.csv'), '--workers', '0');
    expect(early.out).toMatch(/the time limit came during (the overlap pass|line propagation): no more is known/);
    expect(early.out).not.toContain('contradiction');
  });

  it('ranks the puzzles by difficulty in the CSV, the listing and the --html page, hardest first; bad input is still one line and exit 2', () => {
    const csv = join(dir, 'difficulty.csv');
    const html = join(dir, 'pages', 'difficulty.html');
    const MUM = 'corpus/puzzles/webpbn/65.non';
    const EDGE = 'corpus/puzzles/webpbn/23.non';
    const { code, out, err } = run(DANCER, MUM, GCHQ, BAD, EDGE, '--out', csv, '--html', html, '--workers', '1');
    expect(code).toBe(2);
    expect(err.trim().split('\n')).toHaveLength(1);
    const byPath = Object.fromEntries(readCsv(csv).records.map((r) => [r.puzzle_path, r]));
    // Mum and Edge Pattern need as many decisive probes, and Mum more rounds of line logic; Dancer line logic only.
    expect(byPath[MUM]).toMatchObject({ class: 'probe-solvable', difficulty_rank: '1' });
    expect(byPath[EDGE]).toMatchObject({ class: 'probe-solvable', difficulty_rank: '2', line_passes: '0' });
    expect(byPath[DANCER]).toMatchObject({ class: 'overlap-solvable', difficulty_rank: '3', probes_decisive: '0' });
    expect(byPath[GCHQ]).toMatchObject({ class: 'multiple-solutions', difficulty_rank: '' });
    expect(byPath[MUM]!.probes_decisive).toBe(byPath[EDGE]!.probes_decisive);
    expect(Number(byPath[MUM]!.line_passes)).toBeGreaterThan(0);
    expect(Number(byPath[DANCER]!.line_passes)).toBeGreaterThan(0);
    const start = out.indexOf('hardest puzzles first (3 of the 3 with one solution');
    const listing = out.slice(start, out.indexOf('\n\n', start));
    expect([MUM, EDGE, DANCER].map((p) => listing.indexOf(p))).toEqual([...[MUM, EDGE, DANCER].map((p) => listing.indexOf(p))].sort((a, b) => a - b));
    expect(listing).not.toContain(GCHQ);
    const page = readFileSync(html, 'utf8');
    const rows = [...page.matchAll(/<tr><td class="num">(\d*)<\/td><td>([^<]*)<\/td>/g)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual([['1', MUM], ['2', EDGE], ['3', DANCER], ['', GCHQ]]);
    expect(page).not.toMatch(/<script|\s(src|href)=/);
  });

  it('rejects an unknown class name', () => {
    const { code, err } = run(DANCER, '--only', 'easy', '--out', join(dir, 'x.csv'));
    expect(code).toBe(2);
    expect(err).toContain('unknown class "easy"');
  });
});
