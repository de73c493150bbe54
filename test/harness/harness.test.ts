import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { runCorpus, type RunOptions } from '../../harness/run/run.js';
import { taskLimitMs } from '../../harness/run/pool.js';
import { parseShard } from '../../harness/run/tasks.js';
import { strategyNames } from '../../solvers/strategies/registry.js';
import { testRunOptions } from '../helpers/run-options.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const FIX = 'test/fixtures/harness';
const TINY = `${FIX}/tiny.json`;
const CLI = 'dist/harness/cli.js';

/** A log stream that keeps what was written, so tests stay quiet and can read load errors. */
function memoryLog(): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: () => string };
  stream.text = () => chunks.join('');
  return stream;
}

const tmp = tempDirs('harness');

function options(over: Partial<RunOptions>): RunOptions {
  return testRunOptions({ paths: [TINY], strategies: [`${FIX}/slow-goal.mjs`], out: join(tmp(), 'run.csv'), params: { waitMs: 1 }, log: memoryLog() }, over);
}

describe('run: hard limits and verification', () => {
  it('stops a strategy that never polls at the timeout and goes on', async () => {
    // A limit of a second: on a loaded machine a 1 ms solve took more than 0.2 s from its task's start.
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [`${FIX}/loop-forever.mjs`, `${FIX}/slow-goal.mjs`], timeoutS: 1 }));
    const rows = readCsv(r.out).records;
    expect(rows).toHaveLength(4);
    expect(rows.filter((x) => x.strategy === 'loop-forever').map((x) => x.status)).toEqual(['timeout', 'timeout']);
    expect(rows.filter((x) => x.strategy === 'slow-goal').map((x) => x.status)).toEqual(['unique', 'unique']);
    expect(r.exitCode).toBe(0);
  });

  it('gives strategies the clues without the goal', async () => {
    const r = await runCorpus(options({ strategies: [`${FIX}/reads-goal.mjs`] }));
    const rows = readCsv(r.out).records;
    expect(rows.length).toBeGreaterThan(0);
    for (const x of rows) expect([x.status, x.error]).toEqual([x.status === 'multiple' ? 'multiple' : 'unique', '']);
  });

  it('records a worker over its memory limit as memory, not a crash', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`], strategies: [`${FIX}/memory-hog.mjs`], memoryMb: 48, workers: 1, timeoutS: 60 }));
    const rows = readCsv(r.out).records;
    expect(rows.map((x) => x.status)).toEqual(['memory']);
  });

  it('stops a strategy that fills memory outside the JavaScript heap, as memory', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`], strategies: [`${FIX}/buffer-hog.mjs`], memoryMb: 64, workers: 1, timeoutS: 60 }));
    const rows = readCsv(r.out).records;
    expect(rows.map((x) => x.status)).toEqual(['memory']);
  });

  it('records an exception as error with its message and exits non-zero', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`], strategies: [`${FIX}/throws.mjs`] }));
    const [row] = readCsv(r.out).records;
    expect(row!.status).toBe('error');
    expect(row!.error).toContain('plugin failure on purpose');
    expect(r.exitCode).toBe(1);
  });

  it('records a solution that fails the clues as wrong and exits non-zero', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`], strategies: [`${FIX}/wrong-answer.mjs`] }));
    const [row] = readCsv(r.out).records;
    expect(row!.status).toBe('wrong');
    expect(row!.verified).toBe('false');
    expect(row!.error).toMatch(/^solution 1 fails: (row|column) \d+/);
    expect(r.exitCode).toBe(1);
  });

  it('writes every documented column, and metadata on every row', async () => {
    const r = await runCorpus(options({ repeat: 2 }));
    const { columns, records } = readCsv(r.out);
    expect(columns).toEqual([...RUN_COLUMNS]);
    expect(records).toHaveLength(16);
    for (const row of records) {
      expect(['unique', 'multiple']).toContain(row.status);
      expect(row.verified).toBe('true');
      expect(row.node_version).toBe(process.version);
      expect(Number(row.cells_resolved)).toBe(25);
      expect(Number(row.resolved_pct)).toBe(100);
      expect(Number(row.time_ms)).toBeGreaterThan(0);
    }
    expect(new Set(records.map((x) => x.run_id)).size).toBe(1);
  });
});

describe('run: CPU time', () => {
  it('records each solve\'s thread CPU time: some, and never more than its wall time (a busy wait of 40 ms)', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1-4`], params: { waitMs: 40 }, workers: 2 }));
    const rows = readCsv(r.out).records;
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(Number(row.cpu_ms)).toBeGreaterThan(0);
      // The thread can only spend the time it is given: CPU time above wall time is a misreading.
      expect(Number(row.cpu_ms)).toBeLessThanOrEqual(Number(row.time_ms) + 0.5);
    }
  });
});

describe('run: slicing, merging, resuming', () => {
  it('--shard slices partition the task list and merge reassembles it', async () => {
    const strategies = [`${FIX}/slow-goal.mjs`, `${FIX}/wrong-answer.mjs`];
    const full = readCsv((await runCorpus(options({ strategies }))).out).records;
    const dir = tmp();
    const parts: string[] = [];
    for (const k of [1, 2, 3]) {
      const r = await runCorpus(options({ strategies, shard: parseShard(`${k}/3`), out: join(dir, `shard${k}.csv`) }));
      parts.push(r.out);
    }
    const sliced = parts.map((p) => readCsv(p).records);
    const keys = (rows: typeof full) => rows.map((x) => `${x.task}|${x.puzzle_id}|${x.strategy}|${x.rep}`);
    const all = sliced.flatMap(keys);
    expect(new Set(all).size).toBe(all.length); // disjoint
    expect([...all].sort()).toEqual([...keys(full)].sort()); // complete
    const merged = join(dir, 'merged.csv');
    expect(mergeCsvs(merged, parts)).toEqual({ rows: full.length, duplicates: 0 });
    const back = readCsv(merged).records;
    expect(keys(back)).toEqual(keys([...full].sort((a, b) => Number(a.task) - Number(b.task))));
  });

  it('--resume repeats no finished task and completes the rest', async () => {
    const out = join(tmp(), 'resumed.csv');
    await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`, `${TINY}#3`], out }));
    const first = readCsv(out).records;
    expect(first).toHaveLength(3);
    const r = await runCorpus(options({ resume: out }));
    expect(r.tasksSkipped).toBe(3);
    expect(r.tasksRun).toBe(5);
    const rows = readCsv(out).records;
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((x) => x.puzzle_path)).size).toBe(8);
    const again = await runCorpus(options({ resume: out }));
    expect(again.tasksRun).toBe(0);
  });

  it('runs the repetitions in rounds, so those of one pair are spread over the run', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], repeat: 3, workers: 1 }));
    const rows = readCsv(r.out).records.map((x) => `${x.task}:${x.rep}`);
    expect(rows).toEqual(['0:1', '3:1', '1:2', '4:2', '2:3', '5:3']);
  });

  it('a new run replaces its --out file instead of adding to it', async () => {
    const out = join(tmp(), 'again.csv');
    await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], out }));
    const firstRun = readCsv(out).records[0]!.run_id;
    await runCorpus(options({ paths: [`${TINY}#3`], out }));
    const rows = readCsv(out).records;
    expect(rows.map((x) => x.puzzle_path)).toEqual([`${TINY}#3`]);
    expect(rows[0]!.run_id).not.toBe(firstRun);
  });

  it('reports a malformed input file by file and line, and measures the rest', async () => {
    const log = memoryLog();
    const r = await runCorpus(options({ paths: [TINY, 'test/fixtures/harness/not-a-puzzle.non'], log }));
    expect(readCsv(r.out).records).toHaveLength(8);
    expect(log.text()).toMatch(/not-a-puzzle\.non:\d+: /);
    expect(r.exitCode).toBe(2);
  });
});

describe('run: parallelism does not change results', () => {
  it('1 and 2 workers record the same statuses and counters for the same tasks', async () => {
    const counters = ['status', 'verified', 'cells_resolved', 'dead_ends', 'decisions', 'line_solves', 'solutions_found', 'max_depth'];
    const paths = [TINY, 'corpus/puzzles/webpbn/1.non', 'corpus/puzzles/generated/20x20/001.non', 'corpus/puzzles/seeds/gchq-2015.non'];
    const byTask = async (workers: number) => {
      const r = await runCorpus(options({ paths, strategies: strategyNames(), workers, params: {} }));
      const rows = readCsv(r.out).records;
      return new Map(rows.map((x) => [`${x.task}`, counters.map((c) => `${c}=${x[c]}`).join(' ')]));
    };
    const one = await byTask(1);
    const two = await byTask(2);
    expect(one.size).toBe(11 * strategyNames().length);
    expect([...two].sort()).toEqual([...one].sort());
  });
});

describe('run: warm-up', () => {
  const solvesInThread = (out: string) =>
    readCsv(out)
      .records.sort((a, b) => Number(a.task) - Number(b.task))
      .map((r) => (JSON.parse(r.extra!) as { solvesInThread: number }).solvesInThread);

  it('runs --warmup solves before each measured one, and warms a strategy up for longer on its first task in a thread', async () => {
    const warm = await runCorpus(options({ strategies: [`${FIX}/count-solves.mjs`], workers: 1, warmup: 1 }));
    const counts = solvesInThread(warm.out);
    expect(counts.length).toBeGreaterThan(2);
    // First task: the thread's warm-up (64 solves over the run's puzzles), one warm-up solve, then the measured one.
    expect(counts[0]).toBeGreaterThan(20);
    // Later tasks: exactly one warm-up solve and the measured one.
    expect(counts.slice(1).map((c, i) => c - counts[i]!)).toEqual(counts.slice(1).map(() => 2));
    const cold = await runCorpus(options({ strategies: [`${FIX}/count-solves.mjs`], workers: 1, warmup: 0 }));
    expect(solvesInThread(cold.out)).toEqual(counts.map((_, i) => i + 1));
  });

  it('treats a time limit too long for a timer as none, instead of a timer that fires at once', async () => {
    const r = await runCorpus(options({ paths: [`${TINY}#1`], strategies: [`${FIX}/count-solves.mjs`], workers: 1, timeoutS: 3_000_000 }));
    expect(readCsv(r.out).records.map((x) => x.status)).toEqual(['unique']);
    expect(taskLimitMs(3_000_000_000, 0)).toBe(Infinity);
    expect(taskLimitMs(4000, 1)).toBe(10_000);
  });
});

describe('run: killed midway', () => {
  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    it(`leaves a parseable CSV of what finished after ${signal}`, async () => {
      const out = join(tmp(), 'killed.csv');
      const child = spawn(
        process.execPath,
        [CLI, 'run', TINY, TINY, TINY, '--strategies', `${FIX}/slow-goal.mjs`, '--param', 'waitMs=200', '--workers', '1', '--out', out, '--quiet'],
        { stdio: 'ignore' },
      );
      // Kill once some rows (each takes ~200 ms) are on disk.
      for (let i = 0; i < 100; i++) {
        await new Promise((res) => setTimeout(res, 100));
        try {
          if (readFileSync(out, 'utf8').split('\n').length > 3) break;
        } catch {
          // not created yet
        }
      }
      child.kill(signal);
      await new Promise((res) => child.once('exit', res));
      const { columns, records } = readCsv(out);
      expect(columns).toEqual([...RUN_COLUMNS]);
      expect(records.length).toBeGreaterThanOrEqual(2);
      expect(records.length).toBeLessThan(24);
      const raw = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(raw.length - 1).toBe(records.length); // no torn row
    });
  }
});

describe('bench', () => {
  it('prints and writes a row per line solver and per strategy × puzzle, with the timing columns', async () => {
    const out = join(tmp(), 'bench.csv');
    const child = spawn(process.execPath, [CLI, 'bench', '--time', '20', '--strategies', 'overlap', '--out', out], { stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    const code = await new Promise((res) => child.once('exit', res));
    expect(code).toBe(0);
    const { columns, records } = readCsv(out);
    expect(columns).toEqual(['name', 'kind', 'mean_ms', 'p75_ms', 'p99_ms', 'samples', 'ops_per_s', 'rme_pct']);
    expect(records.filter((r) => r.kind === 'line').map((r) => r.name)).toEqual(['line exact 30 cells 5 blocks', 'line overlap 30 cells 5 blocks']);
    expect(records.filter((r) => r.kind === 'strategy')).toHaveLength(5);
    for (const r of records) {
      expect(Number(r.samples)).toBeGreaterThan(0);
      expect(Number(r.ops_per_s)).toBeGreaterThan(0);
      expect(stdout).toContain(r.name);
    }
  });
});
