import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineConfig, benchCheck, resolveStrategySpecs } from '../harness/baseline.js';
import { DEFAULT_COMPARE_OPTIONS, loadRunCsv } from '../harness/compare.js';
import { runCorpus } from '../harness/run.js';

// Real measured runs: slow-goal busy-waits `waitMs` per solve, so 100 against 50 is a true 2× slowdown.
// One worker and waits of 50 ms keep the scheduler's delays (a few ms on a loaded machine) small beside them.
const FIX = 'test/fixtures/harness';
const SLOW = `${FIX}/slow-goal.mjs`;
const PUZZLES = [1, 2, 3].map((n) => `${FIX}/tiny.json#${n}`);
const FAST = 50;
const SLOWER = 100;
const CLI = 'dist/harness/cli.js';
const tmp = () => mkdtempSync(join(tmpdir(), 'nonobench-compare-runs-'));

const quietLog = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  }) as unknown as NodeJS.WriteStream;

async function measure(waitMs: number, paths = PUZZLES): Promise<string> {
  const run = await runCorpus({
    paths,
    strategies: [SLOW],
    repeat: 5,
    warmup: 0,
    timeoutS: 10,
    memoryMb: 256,
    workers: 1,
    maxSolutions: 2,
    out: join(tmp(), `wait-${waitMs}.csv`),
    quiet: true,
    params: { waitMs },
    log: quietLog(),
  });
  expect(run.exitCode).toBe(0);
  return run.out;
}

describe('bench-check', () => {
  const CHECKED = PUZZLES.slice(0, 2);
  let baseline = '';
  beforeAll(async () => {
    baseline = await measure(FAST, CHECKED);
  });

  it('reconstructs the configuration a baseline records', () => {
    expect(baselineConfig(loadRunCsv(baseline))).toEqual({
      paths: CHECKED,
      strategies: ['slow-goal'],
      repeat: 5,
      timeoutS: 10,
      maxSolutions: 2,
      workers: 1,
      warmup: 0,
      memoryMb: 256,
      params: { waitMs: FAST },
    });
  });

  it('needs the module of a strategy that is not built in', async () => {
    await expect(resolveStrategySpecs(['slow-goal'], [], 'b.csv')).rejects.toThrow('b.csv: strategy "slow-goal" is not built in: give its module with --plugin <path>');
    await expect(resolveStrategySpecs(['slow-goal'], [SLOW], 'b.csv')).resolves.toEqual([SLOW]);
  });

  it('rejects a baseline that mixes configurations', () => {
    const csv = loadRunCsv(baseline);
    const mixed = { ...csv, records: csv.records.map((r, i) => (i === 0 ? { ...r, timeout_s: '5' } : r)) };
    expect(() => baselineConfig(mixed)).toThrow(/column timeout_s takes several values/);
  });

  const check = (waitMs: number) =>
    benchCheck({
      baseline,
      out: join(tmp(), 'rerun.csv'),
      plugins: [SLOW],
      params: { waitMs },
      workers: 1,
      warmup: 0,
      memoryMb: 256,
      quiet: true,
      compare: DEFAULT_COMPARE_OPTIONS,
      log: quietLog(),
    });

  it('passes when the code is unchanged and fails on a slowdown', async () => {
    const same = await check(FAST);
    expect(same.run.tasksRun).toBe(10);
    expect(same.comparison.counts.pairs).toBe(2);
    expect(same.comparison.counts.timeRegressions).toBe(0);
    expect(same.exitCode).toBe(0);
    const slow = await check(SLOWER);
    expect(slow.comparison.counts.timeRegressions).toBeGreaterThanOrEqual(1);
    expect(slow.exitCode).toBe(1);
  });

  it('runs from the CLI with the compare exit codes', () => {
    const dir = tmp();
    const args = ['bench-check', '--baseline', baseline, '--plugin', SLOW, '--workers', '1', '-q', '--format', 'json'];
    const slow = spawnSync('node', [CLI, ...args, '--param', `waitMs=${SLOWER}`, '--run-out', join(dir, 'a.csv')], { encoding: 'utf8' });
    expect(slow.status).toBe(1);
    const json = JSON.parse(slow.stdout);
    expect(json.summary.pairs).toBe(2);
    expect(json.summary.time_regressions).toBeGreaterThanOrEqual(1);
    const noPlugin = spawnSync('node', [CLI, 'bench-check', '--baseline', baseline, '--run-out', join(dir, 'b.csv')], { encoding: 'utf8' });
    expect(noPlugin.status).toBe(2);
    expect(noPlugin.stderr).toContain('strategy "slow-goal" is not built in');
    writeFileSync(join(dir, 'taken.csv'), 'x\n');
    const taken = spawnSync('node', [CLI, ...args, '--run-out', join(dir, 'taken.csv')], { encoding: 'utf8' });
    expect(taken.status).toBe(2);
    expect(taken.stderr).toContain('taken.csv: already exists');
  });
});
