import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRunTable, RunTable } from '../../harness/compare/table.js';
import { OKABE_ITO } from '../../harness/report/charts.js';
import { reportData } from '../../harness/report/data.js';
import { buildReport, cactusSeries, REPORT_COLUMNS } from '../../harness/report/report.js';
import { seriesScores } from '../../harness/report/tables.js';
import { writeCsv } from '../../harness/results/csv.js';
import { median } from '../../harness/results/median.js';
import { ROW_STATUSES, type RowStatus, type RunRecord } from '../../harness/results/row.js';
import { isAnswer } from '../../harness/results/scores.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('report-honest');
requireBuiltCli();

const COLUMNS = ['run_id', 'task', 'puzzle_id', 'puzzle_path', 'title', 'width', 'height', 'strategy', 'config', 'rep', 'status', 'time_ms', 'cpu_ms', 'dead_ends', 'decisions', 'line_solves', 'max_depth', 'timeout_s'];

/** [status, wall ms, dead ends] per repetition; CPU time is 0.9 × wall, none for a hard timeout. */
type Reps = [RowStatus, number, number][];

/** Rows of one run: per puzzle, per configuration, its repetitions. */
function records(plan: Record<string, Record<string, Reps>>, limit = '10', runId = 'r1'): RunRecord[] {
  const out: RunRecord[] = [];
  let task = 0;
  for (const [puzzle, byConfig] of Object.entries(plan))
    for (const [config, reps] of Object.entries(byConfig)) {
      reps.forEach(([status, wall, deadEnds], r) =>
        out.push({
          run_id: runId,
          task: String(task),
          puzzle_id: puzzle.padEnd(12, '0'),
          puzzle_path: `puzzles/${puzzle}.non`,
          title: puzzle,
          width: '5',
          height: '5',
          strategy: config,
          config,
          rep: String(r + 1),
          status,
          time_ms: String(wall),
          cpu_ms: status === 'timeout' ? '' : String(Math.round(wall * 900) / 1000),
          dead_ends: status === 'timeout' ? '' : String(deadEnds),
          decisions: '0',
          line_solves: '1',
          max_depth: '0',
          timeout_s: limit,
        }),
      );
      task++;
    }
  return out;
}

const three = (status: RowStatus, wall: number, deadEnds = 0): Reps => [
  [status, wall, deadEnds],
  [status, wall, deadEnds],
  [status, wall, deadEnds],
];

/** x and y over five puzzles, three repetitions, a 10 s limit: every way of not solving. */
const PLAN: Record<string, Record<string, Reps>> = {
  p1: {
    x: [
      ['unique', 10, 1],
      ['unique', 30, 100],
      ['unique', 20, 5],
    ],
    y: three('unique', 50),
  },
  p2: { x: three('timeout', 12500), y: three('unique', 5) },
  p3: { x: three('wrong', 1), y: three('stuck', 2) },
  p4: { x: three('contradiction', 3), y: three('error', 0) },
  p5: {
    x: [
      ['unique', 4, 0],
      ['timeout', 12500, 0],
      ['unique', 4, 0],
    ],
    y: three('unique', 7),
  },
};

const write = (name: string, recs: RunRecord[]) => {
  const file = join(tmp(), name);
  writeCsv(file, COLUMNS, recs);
  return file;
};

const svgs = (html: string) => html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
/** Points of an SVG: hover title, position, fill and shape. */
const points = (svg: string) =>
  [...svg.matchAll(/<path aria-label="[^"]*" role="graphics-symbol" aria-roledescription="point" transform="translate\(([^,]+),([^)]+)\)" d="([^"]+)"[^>]*fill="([^"]+)"[^>]*><title>([^<]*)<\/title><\/path>/g)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    d: m[3]!,
    fill: m[4]!,
    title: m[5]!,
  }));
/** Where the dashed limit rules are: the vertical one's x, the horizontal one's y. */
function limitLines(svg: string): { x: number[]; y: number[] } {
  const rules = [...svg.matchAll(/aria-label="time limit" role="graphics-symbol" aria-roledescription="rule mark" transform="translate\(([^,]+),([^)]+)\)" x2="([^"]+)"/g)];
  return { x: rules.filter((r) => r[3] === '0').map((r) => Number(r[1])), y: rules.filter((r) => r[3] !== '0').map((r) => Number(r[2])) };
}
/** The cells of a table's body rows whose first cell is `first`. */
const rowOf = (html: string, first: string) => {
  const m = html.match(new RegExp(`<tr><td>${first.replace(/[()]/g, '\\$&')}</td>(.*?)</tr>`));
  return m ? [...m[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1]!) : null;
};

describe('a report of one run', () => {
  let file = '';
  let html = '';
  beforeAll(async () => {
    file = write('run.csv', records(PLAN));
    html = await buildReport(loadRunTable(file, REPORT_COLUMNS));
  });

  it('scores solved puzzles only: median, total and PAR-2 over CPU times, unsolved at twice the limit', () => {
    expect(html).toContain('<dt>time shown</dt><dd>CPU time (cpu_ms)</dd>');
    // x solves p1 (median of 9, 27, 18 ms) and p4 (a contradiction, 2.7 ms); p2, p3 (wrong) and p5 (a timeout in one repetition) cost 20 s each.
    // Tasks per status: unique, stuck, contradiction, timeout, wrong, error.
    expect(rowOf(html, 'x')).toEqual(['5', '2', '15', '5', '0', '3', '4', '3', '0', '10.35', '0.021', '60.02', '5']);
    expect(rowOf(html, 'y')).toEqual(['5', '3', '15', '9', '3', '0', '0', '0', '3', '6.30', '0.056', '40.06', '0']);
    expect(html).toMatch(/<th class="num">median cpu ms<\/th><th class="num">total cpu s<\/th><th class="num">PAR-2 s<\/th>/);
  });

  it('the cactus plot draws solved puzzles only, one colour-blind-safe colour and dash per series', () => {
    const data = reportData([loadRunTable(file, REPORT_COLUMNS)]);
    const series = cactusSeries(data);
    expect(series.map((s) => [s.name, [...s.times].sort((a, b) => a - b)])).toEqual([
      ['x', [2.7, 18]],
      ['y', [4.5, 6.3, 45]],
    ]);
    const cactus = svgs(html)[0]!;
    const strokes = [...cactus.matchAll(/aria-roledescription="line mark"[^>]*stroke="([^"]+)"[^>]*stroke-dasharray="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(strokes).toHaveLength(2);
    for (const [colour] of strokes) expect(OKABE_ITO).toContain(colour);
    expect(new Set(strokes.map((s) => s[1])).size).toBe(2);
  });

  it('the scatter plot puts every unsolved side on the dashed limit line, marks the wrong answer apart and names each point', () => {
    const scatter = svgs(html)[1]!;
    const pts = points(scatter);
    expect(pts.map((p) => p.title.split(' — ')[0])).toEqual(['puzzles/p1.non', 'puzzles/p2.non', 'puzzles/p3.non', 'puzzles/p4.non', 'puzzles/p5.non']);
    const at = (name: string) => pts.find((p) => p.title.startsWith(`puzzles/${name}.non`))!;
    const limit = limitLines(scatter);
    expect(limit.x).toHaveLength(1);
    expect(limit.y).toHaveLength(1);
    for (const name of ['p2', 'p3', 'p5']) expect(at(name).x).toBeCloseTo(limit.x[0]!, 6);
    for (const name of ['p3', 'p4']) expect(at(name).y).toBeCloseTo(limit.y[0]!, 6);
    // Screen y grows downwards: a solved side lies below the limit line.
    for (const name of ['p1', 'p2', 'p5']) expect(at(name).y).toBeGreaterThan(limit.y[0]! + 1);
    expect(at('p1').x).toBeLessThan(limit.x[0]! - 1);
    // The wrong answer: its own colour and shape, and a legend entry.
    const wrong = at('p3');
    expect(wrong.title).toBe('puzzles/p3.non — x: wrong; y: stuck');
    for (const other of ['p1', 'p2', 'p4', 'p5']) expect([at(other).fill, at(other).d]).not.toEqual([wrong.fill, wrong.d]);
    expect(scatter).toContain('>wrong answer</text>');
    expect(at('p5').title).toBe('puzzles/p5.non — x: unique×2 timeout×1; y: 6.30 ms');
    for (const p of pts) expect(OKABE_ITO).toContain(p.fill);
  });

  it('the per-puzzle table gives medians over the repetitions, never sums', () => {
    const section = html.slice(html.indexOf('<h2>Per puzzle</h2>'));
    expect(section).toContain('<th colspan="2"></th><th colspan="3" class="group">x</th><th colspan="3" class="group">y</th>');
    expect(rowOf(section, 'puzzles/p1.non')).toEqual(['5×5', 'unique', '18.00', '5', 'unique', '45.00', '0']);
    expect(rowOf(section, 'puzzles/p2.non')).toEqual(['5×5', 'timeout', '-', '-', 'unique', '4.50', '0']);
  });

  it('--time wall shows wall times; --time cpu on a run lacking CPU time is a usage error naming the line', async () => {
    const wall = await buildReport(loadRunTable(file, REPORT_COLUMNS), { time: 'wall' });
    expect(wall).toContain('<dt>time shown</dt><dd>wall time (time_ms) (--time wall)</dd>');
    expect(rowOf(wall, 'x')!.slice(9, 12)).toEqual(['11.50', '0.023', '60.02']);
    const recs = records(PLAN);
    recs[1]!.cpu_ms = '';
    const lacking = write('lacking.csv', recs);
    await expect(buildReport(loadRunTable(lacking, REPORT_COLUMNS), { time: 'cpu' })).rejects.toThrow(`--time cpu: ${lacking}:3: a solved row has no cpu_ms; give --time wall or auto`);
    expect(await buildReport(loadRunTable(lacking, REPORT_COLUMNS))).toContain(`<dd>wall time (time_ms) (${lacking}:3: a solved row has no cpu_ms)</dd>`);
  });
});

describe('a report of BASE and NEW', () => {
  let base = '';
  let next = '';
  beforeAll(() => {
    base = write('base.csv', records(PLAN));
    // NEW: x twice as fast on p1 and solves p2.
    next = write('new.csv', records({ ...PLAN, p1: { ...PLAN.p1!, x: three('unique', 10, 5) }, p2: { ...PLAN.p2!, x: three('unique', 8) } }, '10', 'r2'));
  });

  it('overlays the runs: two series per configuration, the ratio table, one BASE-against-NEW scatter per configuration', async () => {
    const html = await buildReport([loadRunTable(base, REPORT_COLUMNS), loadRunTable(next, REPORT_COLUMNS)]);
    const [cactus, ...panels] = svgs(html);
    expect([...cactus!.matchAll(/role-legend-label[^>]*><text[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['x (base)', 'x (new)', 'y (base)', 'y (new)']);
    expect(rowOf(html, 'x (base)')!.slice(0, 2)).toEqual(['5', '2']);
    expect(rowOf(html, 'x (new)')!.slice(0, 2)).toEqual(['5', '3']);
    // x: p1 and p4 solved by both, p1 in half the time; PAR-2 drops by the 20 s p2 cost.
    expect(rowOf(html, 'x')).toEqual(['5', '2', '3', '2', (Math.sqrt(0.5 * 1)).toFixed(3), '60.02', '40.02', '0.667']);
    expect(panels).toHaveLength(2);
    for (const svg of panels) {
      expect(svg).toContain("X-axis titled 'base (cpu ms)'");
      expect(svg).toContain("Y-axis titled 'new (cpu ms)'");
      expect(points(svg)).toHaveLength(5);
    }
    expect(html).toContain('One plot per configuration in both runs');
  });

  it('from the CLI, with --time; --x is refused with two runs', () => {
    const out = join(tmp(), 'page.html');
    const ok = runCli('report', base, next, '--time', 'wall', '--out', out);
    expect([ok.code, ok.err, ok.out]).toEqual([0, '', `report written to ${out}\n`]);
    expect(readFileSync(out, 'utf8')).toContain('<dd>wall time (time_ms) (--time wall)</dd>');
    const bad = runCli('report', base, next, '--x', 'x', '--out', out);
    expect([bad.code, bad.err.split('\n')[0]]).toEqual([2, 'nonobench: --x and --y choose two configurations of one run; with two runs each configuration is plotted BASE against NEW']);
  });
});

describe('report scores against a direct computation', () => {
  const repArb = fc.record({ status: fc.constantFrom(...ROW_STATUSES), wall: fc.integer({ min: 0, max: 20_000 }), cpu: fc.option(fc.integer({ min: 0, max: 20_000 }), { nil: undefined }) });
  const runArb = fc.record({
    limit: fc.constantFrom('', '10', '2'),
    pairs: fc.array(fc.record({ puzzle: fc.integer({ min: 0, max: 4 }), config: fc.constantFrom('a', 'b'), reps: fc.array(repArb, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 8 }),
  });

  it('solved = an answer in every repetition; its time the median of their times; PAR-2 = solved times + 2 × limit per unsolved puzzle', () => {
    fc.assert(
      fc.property(runArb, ({ limit, pairs }) => {
        // One entry per (puzzle, config): later duplicates dropped, as a run has each pair once.
        const seen = new Set<string>();
        const unique = pairs.filter((p) => !seen.has(`${p.puzzle}/${p.config}`) && seen.add(`${p.puzzle}/${p.config}`));
        const recs: RunRecord[] = unique.flatMap((p, task) =>
          p.reps.map((r, k) => ({
            task: String(task),
            puzzle_id: `id${p.puzzle}`,
            puzzle_path: `p${p.puzzle}`,
            strategy: p.config,
            config: p.config,
            rep: String(k + 1),
            status: r.status,
            time_ms: String(r.wall),
            cpu_ms: r.cpu === undefined ? '' : String(r.cpu),
            dead_ends: '0',
            decisions: '0',
            timeout_s: limit,
          })),
        );
        const data = reportData([RunTable.fromRecords('mem.csv', COLUMNS, recs)]);
        const answered = unique.flatMap((p) => p.reps).filter((r) => isAnswer(r.status));
        const cpu = answered.length > 0 && answered.every((r) => r.cpu !== undefined);
        expect(data.basis).toBe(cpu ? 'cpu' : 'wall');
        for (const s of data.series) {
          const mine = unique.filter((p) => p.config === s.config);
          const solved = mine.filter((p) => p.reps.every((r) => isAnswer(r.status)));
          const timeOf = (p: (typeof mine)[number]) => {
            const times = p.reps.map((r) => (cpu ? r.cpu : r.wall)).filter((t): t is number => t !== undefined);
            return times.length ? median(times) : NaN;
          };
          const got = seriesScores(s);
          expect([got.count, got.solved]).toEqual([mine.length, solved.length]);
          const times = solved.map(timeOf).filter((t) => !Number.isNaN(t));
          if (times.length) expect(got.medianMs).toBe(median(times));
          else expect(got.medianMs).toBeNaN();
          const par2 = mine.reduce((sum, p) => sum + (solved.includes(p) ? timeOf(p) / 1000 : 2 * Number(limit)), 0);
          if (limit === '' || Number.isNaN(par2)) expect(got.par2S).toBeNull();
          else expect(got.par2S).toBeCloseTo(par2, 9);
        }
      }),
      { numRuns: 200 },
    );
  });
});
