import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineConfig, baselineConfigurations, benchCheck, recordingRoot, resolveStrategySpecs } from '../../harness/compare/baseline.js';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { DEFAULT_COMPARE_OPTIONS, loadRunCsv, loadRunTable } from '../../harness/compare/compare.js';
import { runCorpus } from '../../harness/run/run.js';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { CLI, FAST_WORK, measureWork, PUZZLES, quietLog, SLOW, SLOWER_WORK, tmp } from '../helpers/slow-runs.js';
import { canMountPrivately, inPrivateMount } from '../helpers/private-mount.js';


describe('bench-check', () => {
  const CHECKED = PUZZLES.slice(0, 2);
  let baseline = '';
  beforeAll(async () => {
    // Fixed work, not a wait by the clock: CPU time is what bench-check judges, and on a busy machine a
    // wait takes less of it while descheduled, hiding the slowdown.
    baseline = await measureWork(FAST_WORK, CHECKED);
  });

  it('reconstructs the configuration a baseline records', () => {
    const { commit, ...config } = baselineConfig(loadRunCsv(baseline));
    // The commit that recorded the rows, when it ran in a git checkout.
    expect(commit ?? '').toMatch(/^([0-9a-f]{12}(-dirty)?)?$/);
    expect(config).toEqual({
      paths: CHECKED,
      strategies: ['slow-goal'],
      repeat: 5,
      timeoutS: 10,
      maxSolutions: 2,
      workers: 1,
      warmup: 0,
      memoryMb: 256,
      configurations: [{ name: 'slow-goal', strategy: 'slow-goal', params: { work: FAST_WORK }, line: 2 }],
      pathLines: [2, expect.any(Number)],
      largestSide: 5,
    });
  });

  it('loads every puzzle the baseline measured, even above the default --max-size', async () => {
    const dir = tmp();
    const wide = join(dir, 'wide.non');
    writeFileSync(wide, `width 201\nheight 1\n\nrows\n201\n\ncolumns\n${'1\n'.repeat(201)}`);
    const recorded = await runCorpus({
      paths: [wide],
      strategies: ['overlap'],
      repeat: 1,
      warmup: 0,
      timeoutS: 10,
      memoryMb: 256,
      workers: 1,
      maxSolutions: 2,
      maxSize: 201,
      out: join(dir, 'wide-baseline.csv'),
      quiet: true,
      log: quietLog(),
    });
    expect(recorded.tasksRun).toBe(1);
    const rerun = await benchCheck({
      baseline: recorded.out,
      out: join(dir, 'wide-rerun.csv'),
      plugins: [],
      quiet: true,
      compare: { ...DEFAULT_COMPARE_OPTIONS, minTimeMs: 1e9 }, // one repetition: loading is checked here, not timing
      log: quietLog(),
    });
    expect([rerun.run.loadErrors, rerun.run.tasksRun, rerun.exitCode]).toEqual([0, 1, 0]);
  });

  it('needs the module of a strategy that is not built in', async () => {
    await expect(resolveStrategySpecs(['slow-goal'], [], 'b.csv', [7])).rejects.toThrow('b.csv:7: strategy "slow-goal" is not built in: give its module with --plugin <path>');
    await expect(resolveStrategySpecs(['slow-goal'], [SLOW], 'b.csv')).resolves.toEqual([SLOW]);
  });

  it('rejects a baseline that mixes configurations', () => {
    const csv = loadRunCsv(baseline);
    const mixed = { ...csv, records: csv.records.map((r, i) => (i === 0 ? { ...r, timeout_s: '5' } : r)) };
    expect(() => baselineConfig(mixed)).toThrow(/column timeout_s takes several values/);
  });

  // A slowdown injected through a parameter is a change of settings: compared with --allow-different.
  // The threshold is 50%: a shared machine's load moves CPU time per unit of work by more than the default
  // 10% between two runs minutes apart, and the injected slowdown (2×) clears 50% by far.
  const check = (work: number) =>
    benchCheck({
      baseline,
      out: join(tmp(), 'rerun.csv'),
      plugins: [SLOW],
      params: { work },
      workers: 1,
      warmup: 0,
      memoryMb: 256,
      quiet: true,
      compare: { ...DEFAULT_COMPARE_OPTIONS, threshold: 0.5, allowDifferent: true },
      log: quietLog(),
    });

  it('passes when the code is unchanged, and reports a slowdown as advice that does not fail', async () => {
    const same = await check(FAST_WORK);
    expect(same.run.tasksRun).toBe(10);
    expect(same.comparison.counts.pairs).toBe(2);
    expect(same.comparison.counts.timeRegressions).toBe(0);
    expect(same.exitCode).toBe(0);
    const slow = await check(SLOWER_WORK);
    expect(slow.comparison.counts.timeRegressions).toBeGreaterThanOrEqual(1);
    expect(slow.exitCode).toBe(0);
  });

  it('runs from the CLI with the compare exit codes', () => {
    const dir = tmp();
    const args = ['bench-check', '--baseline', baseline, '--plugin', SLOW, '--workers', '1', '-q', '--format', 'json'];
    const refused = spawnSync('node', [CLI, ...args, '--param', `work=${SLOWER_WORK}`, '--run-out', join(dir, 'r.csv')], { encoding: 'utf8' });
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^bench-check: \S+ and \S+r\.csv differ in params of configuration slow-goal: \{"work":150\} vs \{"work":300\}; give --allow-different to compare them anyway$/m);
    const slow = spawnSync('node', [CLI, ...args, '--allow-different', '--param', `work=${SLOWER_WORK}`, '--run-out', join(dir, 'a.csv')], { encoding: 'utf8' });
    expect(slow.status).toBe(0);
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

  it.skipIf(!canMountPrivately)("fails, saying so, when the rerun's CSV meets a full disk: no pass on part of the tasks", () => {
    const dir = tmp();
    const recorded = join(dir, 'baseline.csv');
    const disk = join(dir, 'disk');
    const cli = `${process.execPath} ${resolve(CLI)}`;
    // A baseline of 24 rows (about 17 KB), rerun onto an 8 KiB disk of its own (a tmpfs in a private mount namespace).
    const script = `${cli} run test/fixtures/harness/tiny.json --strategies backtrack --repeat 3 --warmup 0 --workers 1 --out ${recorded} --quiet >/dev/null && mkdir ${disk} && mount -t tmpfs -o size=8k tmpfs ${disk} && ${cli} bench-check --baseline ${recorded} -q --run-out ${disk}/r.csv >/dev/null; echo "exit $?" >&2`;
    const r = inPrivateMount(script);
    expect(r.stderr).toMatch(/^bench-check: the rerun stopped before its last task, so what follows compares part of it: cannot write .*r\.csv \(ENOSPC/m);
    expect(r.stderr).toMatch(/\nexit 1\n$/);
  });

  it('interrupted, says where its rows are without pointing to a --resume it does not take', async () => {
    const out = join(tmp(), 'interrupted.csv');
    const child = spawn(process.execPath, [CLI, 'bench-check', '--baseline', baseline, '--plugin', SLOW, '--param', `work=${SLOWER_WORK * 10}`, '--allow-different', '--workers', '1', '-q', '--run-out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const ended = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    while (!existsSync(out) || statSync(out).size === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await ended).toBe(130);
    expect(err).toMatch(/interrupted by SIGINT: the \d+ rows finished are in \S+interrupted\.csv\n/);
    expect(err).not.toContain('--resume');
  });

  it('asks for a baseline with more repetitions when the time of its pairs is inconclusive (bench-check has no --repeat)', () => {
    const dir = tmp();
    const once = join(dir, 'once.csv');
    const recorded = spawnSync('node', [CLI, 'run', 'corpus/puzzles/webpbn/16.non', '-s', 'backtrack', '--repeat', '1', '--out', once, '-q'], { encoding: 'utf8' });
    expect(recorded.status).toBe(0);
    const r = spawnSync('node', [CLI, 'bench-check', '--baseline', once, '--run-out', join(dir, 'again.csv'), '-q'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('time inconclusive for 1 of 1 pairs: fewer than 3 repetitions a side: record the baseline again with --repeat 3 or more');
  });

  it('reruns from the directory the baseline was recorded in, wherever it is started', () => {
    const elsewhere = tmp();
    expect(recordingRoot(CHECKED, CHECKED.map(() => 2), 'b.csv')).toBe(process.cwd());
    expect(recordingRoot(CHECKED, CHECKED.map(() => 2), 'b.csv', elsewhere)).toBe(PACKAGE_ROOT);
    expect(() => recordingRoot(['no/such.non#2'], [3], 'b.csv', elsewhere)).toThrow(/b\.csv:3: puzzle no\/such\.non is not found/);
    const args = ['bench-check', '--baseline', resolve(baseline), '--plugin', resolve(SLOW), '--param', `work=${FAST_WORK}`];
    const run = spawnSync('node', [resolve(CLI), ...args, '-q', '--format', 'json', '--run-out', 'rerun.csv'], {
      encoding: 'utf8',
      cwd: elsewhere,
    });
    expect(run.stderr).toContain(join(elsewhere, 'rerun.csv'));
    expect(JSON.parse(run.stdout).summary.pairs).toBe(2);
    expect(run.status).toBe(0);
  });

  it('reruns a baseline of absolute paths so that they are recorded absolute again, though started above them', () => {
    // A baseline recorded from outside this checkout names its puzzles by absolute paths; a rerun from
    // a folder above them would record them relative, and no pair would match.
    const absolute = CHECKED.map((p) => resolve(p));
    expect(recordingRoot(absolute, absolute.map(() => 2), 'b.csv')).toBeUndefined();
    const outside = join(tmp(), 'outside.non');
    writeFileSync(outside, '');
    expect(recordingRoot([outside], [2], 'b.csv')).toBe(process.cwd());
    const { columns, records } = readCsv(baseline);
    const recorded = join(tmp(), 'absolute.csv');
    writeCsv(recorded, columns, records.map((r) => ({ ...r, puzzle_path: resolve(r.puzzle_path!) })));
    const args = ['bench-check', '--baseline', recorded, '--plugin', resolve(SLOW), '--param', `work=${FAST_WORK}`];
    const run = spawnSync('node', [resolve(CLI), ...args, '-q', '--format', 'json', '--run-out', join(tmp(), 'rerun.csv')], { encoding: 'utf8', cwd: PACKAGE_ROOT });
    expect(run.stderr).not.toMatch(/shares no/);
    expect(JSON.parse(run.stdout).summary.pairs).toBe(2);
    expect(run.status).toBe(0);
  });
});

describe('a baseline naming what cannot be run again', () => {
  it('says a strategy not built in and a puzzle not found at the first row that names them', async () => {
    const file = join(tmp(), 'baseline.csv');
    const { columns, records } = readCsv('test/fixtures/csv/base.csv');
    // Row 7 (line 9) names a strategy of its own; dog.non's rows name a puzzle that is nowhere.
    const rows = records.map((r, i) => ({ ...r, puzzle_path: r.puzzle_path === 'corpus/puzzles/cat.non' ? 'corpus/puzzles/webpbn/1.non' : 'no/such.non', ...(i === 7 ? { strategy: 'nosuch' } : {}) }));
    writeCsv(file, columns, rows);
    const config = baselineConfig(loadRunTable(file));
    await expect(baselineConfigurations(config, { baseline: file, plugins: [] })).rejects.toThrow(`${file}:9: strategy "nosuch" is not built in`);
    const line = rows.findIndex((r) => r.puzzle_path === 'no/such.non') + 2;
    expect(() => recordingRoot(config.paths, config.pathLines, file)).toThrow(`${file}:${line}: puzzle no/such.non is not found`);
  });
});
