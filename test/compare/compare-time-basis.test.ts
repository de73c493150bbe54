import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS, SettingsRefusal, type CompareOptions, type RunCsv } from '../../harness/compare/compare.js';
import { formatComparison } from '../../harness/compare/format.js';
import { writeCsv } from '../../harness/results/csv.js';
import { RUN_COLUMNS, type RunRecord } from '../../harness/results/row.js';
import { UsageError } from '../../harness/io/thrown.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const CLI = 'dist/harness/cli.js';
const tmp = tempDirs('compare-time-basis');

interface Shape {
  /** Factors on the wall and CPU times. */
  wall?: number;
  cpu?: number;
  /** Row fields to override (all rows), e.g. settings. */
  over?: Partial<Record<keyof RunRecord, string>>;
  /** Leave cpu_ms empty on this row (index). */
  noCpuAt?: number;
  seed?: number;
}

/** A synthetic run: 8 puzzles × 5 repetitions of two configurations, CPU time a little under wall time, ±5% jitter. */
function records({ wall = 1, cpu = 1, over = {}, noCpuAt = -1, seed = 1 }: Shape = {}): RunRecord[] {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const out: Record<string, string>[] = [];
  for (let p = 0; p < 8; p++)
    for (const config of ['fast', 'slow'])
      for (let rep = 1; rep <= 5; rep++) {
        const work = (10 + p) * (0.95 + 0.1 * rand());
        out.push({
          task: String(out.length),
          puzzle_id: `p${p}`,
          puzzle_path: `p${p}.non`,
          strategy: 'backtrack',
          config,
          rep: String(rep),
          status: 'unique',
          verified: 'true',
          time_ms: (work * wall).toFixed(3),
          cpu_ms: out.length === noCpuAt ? '' : (work * 0.97 * cpu).toFixed(3),
          dead_ends: '3',
          decisions: '4',
          line_solves: '100',
          timeout_s: '10',
          max_solutions: '2',
          warmup: '1',
          workers: '2',
          memory_mb: '512',
          cpu_model: 'Test CPU',
          node_version: 'v20.20.0',
          params: config === 'fast' ? '{"probe":true}' : '{"probe":false}',
          definition: '',
          ...over,
        });
      }
  return out as unknown as RunRecord[];
}

const csvOf = (file: string, rows: RunRecord[]): RunCsv => ({ file, columns: Object.keys(rows[0]!), records: rows });
const opts = (o: Partial<CompareOptions> = {}): CompareOptions => ({ ...DEFAULT_COMPARE_OPTIONS, ...o });
const BASE = csvOf('base.csv', records());
/** The machine was busy: every wall time doubled, the CPU times the same. */
const BUSY = csvOf('busy.csv', records({ wall: 2, seed: 2 }));

describe('compare: the time basis', () => {
  it('judges CPU time when both runs have it, so a wall-time slowdown from load is no regression', () => {
    const r = compareRuns(BASE, BUSY);
    expect([r.timeBasis, r.timeBasisNote]).toEqual(['cpu', '']);
    expect(r.counts).toMatchObject({ pairs: 16, timeRegressions: 0 });
    expect(r.exitCode).toBe(0);
    const text = formatComparison(r, 'table');
    expect(text).toContain('time: CPU time (cpu_ms), not scaled by calibration');
    expect(text).not.toContain('machine speed:');
  });

  it('judges wall time with --time wall, and then flags the doubling', () => {
    const r = compareRuns(BASE, BUSY, opts({ time: 'wall' }));
    expect([r.timeBasis, r.timeBasisNote]).toEqual(['wall', '--time wall']);
    expect(r.counts.timeRegressions).toBe(16);
    expect(r.exitCode).toBe(1);
    const text = formatComparison(r, 'table');
    expect(text).toContain('time: wall time (time_ms) (--time wall)');
    expect(text).toContain('machine speed: not normalized');
  });

  it('flags a slowdown of CPU time', () => {
    const r = compareRuns(BASE, csvOf('slower.csv', records({ wall: 2, cpu: 2, seed: 3 })));
    expect(r.timeBasis).toBe('cpu');
    expect(r.counts.timeRegressions).toBe(16);
  });

  it('falls back to wall time when a compared row lacks cpu_ms, naming it; --time cpu is then a usage error', () => {
    const holed = csvOf('holed.csv', records({ wall: 2, seed: 2, noCpuAt: 7 }));
    holed.lines = holed.records.map((_r, i) => i + 2);
    const r = compareRuns(BASE, holed);
    expect([r.timeBasis, r.timeBasisNote]).toEqual(['wall', 'holed.csv:9: a compared row has no cpu_ms']);
    expect(r.counts.timeRegressions).toBe(16);
    expect(formatComparison(r, 'table')).toContain('time: wall time (time_ms) (holed.csv:9: a compared row has no cpu_ms)');
    expect(() => compareRuns(BASE, holed, opts({ time: 'cpu' }))).toThrow(UsageError);
    expect(() => compareRuns(BASE, holed, opts({ time: 'cpu' }))).toThrow('--time cpu: holed.csv:9: a compared row has no cpu_ms');
    const old = csvOf('old.csv', records().map(({ cpu_ms: _c, ...r }) => r as RunRecord));
    expect(compareRuns(old, BUSY).timeBasisNote).toBe('old.csv has no cpu_ms column');
    expect(() => compareRuns(old, BUSY, opts({ time: 'cpu' }))).toThrow('--time cpu: old.csv has no cpu_ms column');
  });

  it('does not need cpu_ms on rows whose time is not compared (a timeout)', () => {
    const rows = records({ seed: 4 });
    rows[0] = { ...rows[0]!, status: 'timeout', verified: '', cpu_ms: '' };
    expect(compareRuns(BASE, csvOf('t.csv', rows)).timeBasis).toBe('cpu');
  });

  it('does not scale CPU time by calibration, but still scales wall time', () => {
    const calib = (c: number, shape: Shape) => records(shape).map((r, i) => ({ ...r, calib_ms: (c * (1 + i / 1000)).toFixed(3) }) as RunRecord);
    const base = csvOf('b.csv', calib(3, {}));
    const busy = csvOf('n.csv', calib(6, { wall: 2, seed: 2 }));
    const cpu = compareRuns(base, busy);
    expect([cpu.timeBasis, cpu.speedFactor, cpu.counts.timeRegressions]).toEqual(['cpu', 1, 0]);
    const wall = compareRuns(base, busy, opts({ time: 'wall' }));
    expect(wall.speedFactor).toBeCloseTo(0.5, 2);
    expect(wall.counts.timeRegressions).toBe(0);
  });

  it('names the basis in json and csv', () => {
    const r = compareRuns(BASE, BUSY);
    const json = JSON.parse(formatComparison(r, 'json'));
    expect([json.time_basis, json.time_basis_note, json.settings.time, json.speed_factor]).toEqual(['cpu', '', 'auto', 1]);
    expect(json.pairs[0].base.median_ms).toBeCloseTo(json.pairs[0].new.median_ms, -1);
    const rows: Record<string, string>[] = parse(formatComparison(r, 'csv'), { columns: true });
    expect(new Set(rows.map((x) => x.time_basis))).toEqual(new Set(['cpu']));
    expect(JSON.parse(formatComparison(compareRuns(BASE, BUSY, opts({ time: 'wall' })), 'json')).time_basis).toBe('wall');
  });
});

describe('compare: runs with different settings', () => {
  const refusal = (next: RunCsv): SettingsRefusal => {
    try {
      compareRuns(BASE, next);
    } catch (err) {
      if (err instanceof SettingsRefusal) return err;
      throw err;
    }
    throw new Error('not refused');
  };

  it('refuses a different time limit, solution cap, warm-up, definition or configuration params, one line each', () => {
    const next = csvOf('new.csv', records({ over: { timeout_s: '5', max_solutions: '1', warmup: '0', definition: 'bench.json@0123456789ab' } }));
    expect(refusal(next).lines('compare')).toEqual([
      'compare: base.csv and new.csv differ in timeout_s: 10 vs 5; give --allow-different to compare them anyway',
      'compare: base.csv and new.csv differ in max_solutions: 2 vs 1; give --allow-different to compare them anyway',
      'compare: base.csv and new.csv differ in warmup: 1 vs 0; give --allow-different to compare them anyway',
      'compare: base.csv and new.csv differ in definition: none vs "bench.json@0123456789ab"; give --allow-different to compare them anyway',
    ]);
    const params = records().map((r) => (r.config === 'slow' ? { ...r, params: '{"probe":true}' } : r));
    expect(refusal(csvOf('new.csv', params)).lines('compare')).toEqual([
      'compare: base.csv and new.csv differ in params of configuration slow: {"probe":false} vs {"probe":true}; give --allow-different to compare them anyway',
    ]);
  });

  it('takes no time limit written empty (as run writes it) and written 0 for the same setting', () => {
    const none = csvOf('none.csv', records({ over: { timeout_s: '' } }));
    const zero = csvOf('zero.csv', records({ over: { timeout_s: '0' } }));
    expect(compareRuns(none, zero, opts()).settings.differences).toEqual([]);
    expect(refusal(csvOf('new.csv', records({ over: { timeout_s: '' } }))).lines('compare')).toEqual([
      'compare: base.csv and new.csv differ in timeout_s: 10 vs none; give --allow-different to compare them anyway',
    ]);
  });

  it("only notes a built-in strategy's parameter one run does not record (added since) when the other has it at its default", () => {
    const run = (name: string, params: string, strategy = 'backtrack', strategyFile = '') =>
      csvOf(name, records().map((r) => ({ ...r, strategy_file: '', ...(r.config === 'slow' ? { strategy, params, strategy_file: strategyFile } : {}) })));
    const older = run('base.csv', '{"probing":true}');
    const r = compareRuns(older, run('new.csv', '{"probing":true,"restarts":true}'));
    expect(r.settings.differences).toEqual([{ setting: 'params', configuration: 'slow', base: '{"probing":true}', next: '{"probing":true,"restarts":true}', refuses: false }]);
    expect(formatComparison(r, 'table')).toContain('note: base.csv and new.csv differ in params of configuration slow: {"probing":true} vs {"probing":true,"restarts":true}');
    const refused = (base: RunCsv, next: RunCsv): string[] => {
      try {
        compareRuns(base, next);
      } catch (err) {
        if (err instanceof SettingsRefusal) return err.lines('compare');
        throw err;
      }
      return [];
    };
    // Not at its default (restarts defaults to true): the runs differ.
    expect(refused(older, run('new.csv', '{"probing":true,"restarts":false}'))).toEqual([
      'compare: base.csv and new.csv differ in params of configuration slow: {"probing":true} vs {"probing":true,"restarts":false}; give --allow-different to compare them anyway',
    ]);
    // A plugin or an external solver has no defaults to go by: any difference refuses, a plugin named like a built-in strategy too.
    expect(refused(run('base.csv', '{"work":1}', './plugin.mjs'), run('new.csv', '{"work":1,"extra":true}', './plugin.mjs'))).toHaveLength(1);
    expect(refused(run('base.csv', '{"probing":true}', 'backtrack', 'plug.mjs@0123456789ab'), run('new.csv', '{"probing":true,"restarts":true}', 'backtrack', 'plug.mjs@0123456789ab'))).toHaveLength(1);
    // Without the strategy_file column, a run cannot tell a built-in from a plugin of its name.
    expect(refused(older, csvOf('new.csv', records().map((r) => (r.config === 'slow' ? { ...r, params: '{"probing":true,"restarts":true}' } : r))))).toHaveLength(1);
    expect(refused(run('base.csv', '{"input":"cnf"}', 'external'), run('new.csv', '{"input":"cnf","encoding":"automaton"}', 'external'))).toHaveLength(1);
  });

  it('compares them anyway with allowDifferent, and says how they differ', () => {
    const r = compareRuns(BASE, csvOf('new.csv', records({ over: { timeout_s: '5' } })), opts({ allowDifferent: true }));
    expect(r.settings.differences).toEqual([{ setting: 'timeout_s', configuration: '', base: '10', next: '5', refuses: true }]);
    expect(formatComparison(r, 'table')).toContain('settings: base.csv and new.csv differ in timeout_s: 10 vs 5 (compared anyway: --allow-different)');
    expect(JSON.parse(formatComparison(r, 'json')).setting_differences).toEqual([{ setting: 'timeout_s', configuration: '', base: '10', new: '5', refuses: true }]);
  });

  it('only notes another machine, node, worker count or memory limit', () => {
    const r = compareRuns(BASE, csvOf('new.csv', records({ over: { cpu_model: 'Other CPU', node_version: 'v22.1.0', workers: '4', memory_mb: '1024' } })));
    expect(r.settings.differences.map((d) => [d.setting, d.refuses])).toEqual([
      ['cpu_model', false],
      ['node_version', false],
      ['workers', false],
      ['memory_mb', false],
    ]);
    const text = formatComparison(r, 'table');
    expect(text).toContain('note: base.csv and new.csv differ in cpu_model: "Test CPU" vs "Other CPU"');
    expect(text).toContain('note: base.csv and new.csv differ in workers: 2 vs 4');
    expect(formatComparison(compareRuns(BASE, BUSY), 'table')).toContain('settings: the same in both runs');
  });

  it('counts a setting an older CSV lacks as unknown, and a value written differently as the same', () => {
    const old = csvOf('old.csv', records({ over: { timeout_s: '10.0' } }).map(({ warmup: _w, definition: _d, params: _p, ...r }) => r as RunRecord));
    const r = compareRuns(BASE, old);
    expect(r.settings).toEqual({ differences: [], unknown: ['warmup', 'params', 'definition'] });
    expect(formatComparison(r, 'table')).toContain('settings not recorded by a run (not compared): warmup, params, definition');
  });
});

describe('compare CLI: --time and --allow-different', () => {
  const write = (name: string, rows: RunRecord[]) => {
    const file = join(tmp(), name);
    writeCsv(file, RUN_COLUMNS, rows);
    return file;
  };
  const cli = (...args: string[]) => spawnSync('node', [CLI, 'compare', ...args], { encoding: 'utf8' });

  it('announces the basis, follows --time, and refuses --time cpu without cpu_ms', () => {
    const base = write('base.csv', records());
    const busy = write('busy.csv', records({ wall: 2, seed: 2 }));
    const auto = cli(base, busy);
    expect(auto.status).toBe(0);
    expect(auto.stdout).toContain('time: CPU time (cpu_ms)');
    const wall = cli(base, busy, '--time', 'wall');
    expect(wall.status).toBe(1);
    expect(wall.stdout).toContain('time: wall time (time_ms) (--time wall)');
    const old = write('old.csv', records().map((r) => ({ ...r, cpu_ms: '' }) as RunRecord));
    const refused = cli(old, busy, '--time', 'cpu');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^nonobench: --time cpu: \S*old\.csv:2: a compared row has no cpu_ms; give --time wall or auto\n\(see nonobench compare --help\)\n$/);
    expect(cli(old, busy, '--time', 'sometimes').status).toBe(2);
  });

  it('refuses runs with different settings (exit 2) unless --allow-different', () => {
    const base = write('base.csv', records());
    const next = write('new.csv', records({ over: { timeout_s: '5', workers: '4' } }));
    const refused = cli(base, next);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      `compare: ${base} and ${next} differ in timeout_s: 10 vs 5; give --allow-different to compare them anyway`,
      `compare: note: ${base} and ${next} differ in workers: 2 vs 4`,
    ]);
    const allowed = cli(base, next, '--allow-different');
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain(`settings: ${base} and ${next} differ in timeout_s: 10 vs 5 (compared anyway: --allow-different)`);
    const csv = cli(base, next, '--allow-different', '--format', 'csv');
    expect(csv.status).toBe(0);
    expect(csv.stderr).toContain(`compare: ${base} and ${next} differ in timeout_s: 10 vs 5 (compared anyway: --allow-different)`);
  });
});
