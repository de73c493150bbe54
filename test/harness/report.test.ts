import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRunCsv } from '../../harness/compare/compare.js';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { buildReport, defaultReportPath, REPORT_COLUMNS, writeReport } from '../../harness/report/report.js';
import { runCorpus } from '../../harness/run/run.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const FIX = 'test/fixtures/harness';
const CSV_FIX = 'test/fixtures/csv';
const CLI = 'dist/harness/cli.js';
const tmp = tempDirs('report');

/** A second solving plugin, so the run has two strategies that solve puzzles. */
const QUICK_GOAL = `
import { answer } from ${JSON.stringify(pathToFileURL(resolve('test/fixtures/harness/first-solution.mjs')).href)};
export default {
  name: 'quick-goal',
  description: 'returns its answer at once',
  solve(puzzle, { maxSolutions }) {
    const { status, grid, solutions } = answer(puzzle, maxSolutions);
    const metrics = { deadEnds: 0, decisions: 0, lineSolves: 1, maxDepth: 0, extra: {} };
    return { status, grid, solutions, metrics };
  },
};
`;

const quietLog = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  }) as unknown as NodeJS.WriteStream;

const svgs = (html: string) => html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
/** The aria labels of the marks of one kind in an SVG (vega labels each mark with its data). */
const markLabels = (svg: string, role: string) =>
  [...svg.matchAll(new RegExp(`aria-label="([^"]*)" role="graphics-symbol" aria-roledescription="${role}"`, 'g'))].map((m) => m[1]!);
const legendLabels = (svg: string) => [...svg.matchAll(/role-legend-label[^>]*>(?:<text[^>]*>([^<]*)<\/text>)+/g)].map((m) => m[0]!.replace(/<[^>]*>/g, '').replace(/^role-legend-label[^>]*>/, ''));

/** The cells of the rows of the first table in `html`, header included. */
const tableRows = (html: string) =>
  (html.match(/<table>[\s\S]*?<\/table>/)?.[0] ?? '')
    .split('</tr>')
    .slice(0, -1)
    .map((row) => [...row.matchAll(/<t[hd][^>]*>([^<]*)<\/t[hd]>/g)].map((m) => m[1]!));

/** No fetched resources and no scripts: the page must work offline and be inert. */
function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/<script|<link|<iframe|<img/i);
}

describe('report on a real run', () => {
  let csv = '';
  let html = '';
  beforeAll(async () => {
    const dir = tmp();
    const quick = join(dir, 'quick-goal.mjs');
    writeFileSync(quick, QUICK_GOAL);
    const run = await runCorpus({
      paths: [1, 2, 3, 4].map((n) => `${FIX}/tiny.json#${n}`),
      strategies: [`${FIX}/slow-goal.mjs`, quick],
      repeat: 2,
      warmup: 0,
      timeoutS: 10,
      memoryMb: 256,
      workers: 2,
      maxSolutions: 2,
      out: join(dir, 'run.csv'),
      quiet: true,
      params: { waitMs: 3 },
      log: quietLog(),
    });
    csv = run.out;
    html = await buildReport(loadRunCsv(csv, REPORT_COLUMNS));
  });

  it('draws one cactus line per configuration, each listed in the legend', () => {
    const [cactus] = svgs(html);
    const lines = markLabels(cactus!, 'line mark');
    expect(lines).toHaveLength(2);
    expect(lines.filter((l) => l.endsWith('series: slow-goal'))).toHaveLength(1);
    expect(lines.filter((l) => l.endsWith('series: quick-goal'))).toHaveLength(1);
    expect(legendLabels(cactus!)).toEqual(['slow-goal', 'quick-goal']);
  });

  it('plots the first two configurations against each other in CPU time, one point per puzzle, with the diagonal and the limit lines', () => {
    const scatter = svgs(html)[1]!;
    expect(scatter).toContain("X-axis titled 'slow-goal (cpu ms)'");
    expect(scatter).toContain("Y-axis titled 'quick-goal (cpu ms)'");
    const points = markLabels(scatter, 'point');
    expect(points.map((p) => p.split(' — ')[0])).toEqual([1, 2, 3, 4].map((n) => `${FIX}/tiny.json#${n}`));
    for (const p of points) expect(p).toMatch(/ — slow-goal: [\d.]+ ms; quick-goal: [\d.]+ ms$/);
    expect(markLabels(scatter, 'line mark')).toHaveLength(1);
    expect(markLabels(scatter, 'rule mark')).toEqual(['time limit', 'time limit']);
  });

  it('has the run metadata, a row per strategy and no external resources', () => {
    const row = readCsv(csv).records[0]!;
    for (const value of [row.run_id!, row.git_commit || '-', row.node_version!, row.nonobench_version!]) expect(html).toContain(`<dd>${value}</dd>`);
    // puzzles, solved, tasks
    expect(html).toMatch(/<tr><td>slow-goal<\/td><td class="num">4<\/td><td class="num">4<\/td><td class="num">8<\/td>/);
    expect(html).toMatch(/<tr><td>quick-goal<\/td><td class="num">4<\/td><td class="num">4<\/td><td class="num">8<\/td>/);
    expect(html).toContain('<dt>time shown</dt><dd>CPU time (cpu_ms)</dd>');
    expect(html).toContain('Neither the backtrack nor the probe strategy is in this run');
    expectSelfContained(html);
  });

  it('the CLI writes it next to the CSV by default, and takes --x/--y', () => {
    const r = spawnSync('node', [CLI, 'report', csv, '--x', 'quick-goal', '--y', 'slow-goal'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const out = csv.replace(/\.csv$/, '.html');
    expect(r.stdout).toBe(`report written to ${out}\n`);
    const page = readFileSync(out, 'utf8');
    expect(svgs(page)[1]).toContain("X-axis titled 'quick-goal (cpu ms)'");
    const bad = spawnSync('node', [CLI, 'report', csv, '--x', 'nope', '--out', join(tmp(), 'x.html')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^nonobench: --x nope: no such configuration in .*run\.csv \(it has slow-goal, quick-goal\)\n\(see nonobench report --help\)\n$/);
  });
});

/** The fixture's puzzles that need guessing, most dead ends first, as the section lists them under `config`: [puzzle, configuration, dead ends]. */
const fixtureGuesses = (config: string) => [
  ['corpus/puzzles/hard.non', config, '140'],
  ['corpus/puzzles/web.non#2', config, '12'],
  ['corpus/puzzles/dog.non', config, '3'],
];

/** The report's section on guessing, for these rows written as a run CSV named `name`. */
async function guessingSection(name: string, columns: string[], records: Record<string, string>[]): Promise<string> {
  const file = join(tmp(), name);
  writeCsv(file, columns, records);
  const html = await buildReport(loadRunCsv(file, REPORT_COLUMNS));
  return html.slice(html.indexOf('Puzzles that need guessing'));
}

describe('report on CSV fixtures', () => {
  it('lists the puzzles that need guessing, most dead ends first', async () => {
    const html = await buildReport(loadRunCsv(`${CSV_FIX}/base.csv`, REPORT_COLUMNS));
    const section = html.slice(html.indexOf('Puzzles that need guessing'));
    const [header, ...rows] = tableRows(section);
    expect(header).toEqual(['puzzle', 'title', 'size', 'strategy', 'status', 'dead ends', 'decisions', 'max depth', 'median wall ms']);
    // backtrack: cat needs no guess (0 dead ends, 0 decisions); overlap never guesses.
    expect(rows.map((r) => [r[0], r[3], r[5]])).toEqual(fixtureGuesses('backtrack'));
  });

  it('lists only rows that guessed, and prefers probe, whose probing contradictions are no guesses', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const probe = records
      .filter((r) => r.strategy === 'backtrack')
      .map((r) => ({ ...r, strategy: 'probe', dead_ends: r.puzzle_path.endsWith('hard.non') ? '9' : '4', decisions: r.puzzle_path.endsWith('hard.non') ? '2' : '0' }));
    const [, ...rows] = tableRows(await guessingSection('with-probe.csv', columns, [...records, ...probe]));
    expect(rows.map((r) => [r[0], r[3], r[5], r[6]])).toEqual([['corpus/puzzles/hard.non', 'probe', '9', '2']]);
  });

  it('tells the guessing strategy by the strategy column, not by the configuration name', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const cols = [...columns, 'config'];
    // backtrack under a configuration name of its own; overlap (which never guesses) named "probe".
    const renamed = records.map((r) => ({ ...r, config: r.strategy === 'backtrack' ? 'backtrack:first=empty' : 'probe' }));
    const section = await guessingSection('renamed.csv', cols, renamed);
    expect(section).not.toContain('Neither the backtrack nor the probe strategy');
    expect(section).not.toContain('every one was solved by deduction alone');
    const [, ...rows] = tableRows(section);
    expect(rows.map((r) => [r[0], r[3], r[5]])).toEqual(fixtureGuesses('backtrack:first=empty'));
  });

  it('does not take probe with probing off for probe: its guesses are where line logic alone stops', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const cols = [...columns, 'config', 'params'];
    const rows = records.map((r) =>
      r.strategy === 'backtrack' ? { ...r, strategy: 'probe', config: 'probe:probing=false', params: '{"probing":false}' } : { ...r, config: r.strategy, params: '{}' },
    );
    const section = await guessingSection('probing-off.csv', cols, rows);
    expect(section).not.toContain('contradiction probing did not finish them');
    expect(section).toContain('Puzzles on which probe (configuration probe:probing=false) made decisions (guesses): line logic alone did not finish them');
  });

  it('does not say every puzzle was solved by deduction when the guessing strategy solved none', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const timedOut = records.map((r) => ({ ...r, status: 'timeout', verified: '', dead_ends: '', decisions: '', max_depth: '', cells_resolved: '', resolved_pct: '', line_solves: '', solutions_found: '' }));
    const section = await guessingSection('timeouts.csv', columns, timedOut);
    expect(section).not.toContain('every one was solved by deduction alone');
    expect(section).toMatch(/backtrack left \d+ of its \d+ puzzles unsolved with no guess recorded/);
  });

  it('escapes every text taken from the CSV', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const nasty = records.map((r) => ({
      ...r,
      strategy: r.strategy === 'overlap' ? '<img src=x onerror=alert(1)>' : r.strategy,
      title: '<script>alert("t")</script>',
      puzzle_path: `${r.puzzle_path} & "q" <i>`,
      run_id: '<b>run</b>',
      cpu_model: 'CPU "fast" & <cheap>',
    }));
    const file = join(tmp(), 'nasty.csv');
    writeCsv(file, columns, nasty);
    const html = await buildReport(loadRunCsv(file, REPORT_COLUMNS));
    expectSelfContained(html);
    expect(html).not.toContain('<b>run');
    expect(html).not.toContain('<i>');
    expect(html).toContain('&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;');
    expect(html).toContain('<dd>CPU &quot;fast&quot; &amp; &lt;cheap&gt;</dd>');
    expect(html).toContain('<td>&lt;img src=x onerror=alert(1)&gt;</td>');
  });

  it('draws configurations whose names hold line breaks, line separators and backslashes before quotes', async () => {
    // Vega-lite quotes axis titles into generated expressions; these names used to end the report with a parse error.
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const names = new Map<string, string>();
    for (const r of records) if (!names.has(r.strategy!)) names.set(r.strategy!, ['a\nb', 'x\\"y\u2028z\r'][names.size] ?? r.strategy!);
    const file = join(tmp(), 'names.csv');
    writeCsv(file, columns, records.map((r) => ({ ...r, strategy: names.get(r.strategy!)! })));
    const html = await buildReport(loadRunCsv(file, REPORT_COLUMNS));
    expectSelfContained(html);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(2); // the cactus and the scatter plot
  });

  it('draws configurations named like a property of every object (constructor, __proto__), each in the legend by its name', async () => {
    // Vega-lite lists the legend's entries in a Vega expression, in which these names read as (missing) signals.
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const rename: Record<string, string> = { overlap: 'constructor', backtrack: '__proto__' };
    const file = join(tmp(), 'proto-names.csv');
    writeCsv(file, columns, records.map((r) => ({ ...r, strategy: rename[r.strategy!]! })));
    const html = await buildReport(loadRunCsv(file, REPORT_COLUMNS));
    expectSelfContained(html);
    const cactus = svgs(html)[0]!;
    const legend = [...cactus.matchAll(/<text text-anchor="start"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(legend).toEqual(expect.arrayContaining(['constructor', '__proto__']));
    expect(legend).not.toContain('undefined');
  });

  it('writes next to the CSV by default and says when there is one strategy', async () => {
    const { columns, records } = readCsv(`${CSV_FIX}/base.csv`);
    const file = join(tmp(), 'one.csv');
    writeCsv(file, columns, records.filter((r) => r.strategy === 'overlap'));
    expect(defaultReportPath(file)).toBe(file.replace(/\.csv$/, '.html'));
    const out = await writeReport(file);
    expect(existsSync(out)).toBe(true);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('fewer than two configurations');
    expect(svgs(html)).toHaveLength(1);
    expect(markLabels(svgs(html)[0]!, 'line mark').filter((l) => l.endsWith('series: overlap'))).toHaveLength(1);
  });
});
