/**
 * The harness's own costs, measured on real runs:
 *   1. overhead per task: wall time of a run of 1000 random 5×5 puzzles (1 worker) minus the sum
 *      of the solver times, divided by 1000;
 *   2. parallel speed-up: a run of 200 random 20×20 puzzles with 2 workers against 1, once and with
 *      5 repetitions (each worker thread compiles the solvers for itself, which in a short run is a
 *      large share: the longer run shows the speed-up once that warm-up is paid);
 *   3. the parent's memory over 10 000 tasks (1000 puzzles × 10 repetitions), sampled every 250 ms.
 *
 *   node --expose-gc dist/test/bench/harness.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSeries } from '../../corpus/generate.js';
import { readCsv } from '../../harness/results/csv.js';
import { runCorpus, type RunOptions } from '../../harness/run/run.js';

const dir = mkdtempSync(join(tmpdir(), 'nonobench-harness-bench-'));
const small = join(dir, '5x5');
const medium = join(dir, '20x20');
writeSeries({ width: 5, height: 5, density: 0.5, count: 1000, seed: 55 }, small);
writeSeries({ width: 20, height: 20, density: 0.5, count: 200, seed: 2020 }, medium);

async function timedRun(over: Partial<RunOptions>): Promise<{ wallMs: number; solverMs: number; out: string }> {
  const out = join(dir, `run-${Math.random().toString(36).slice(2)}.csv`);
  const start = performance.now();
  await runCorpus({
    paths: [small],
    strategies: ['backtrack'],
    repeat: 1,
    warmup: 0,
    timeoutS: 60,
    memoryMb: 1024,
    workers: 1,
    maxSolutions: 2,
    out,
    quiet: true,
    ...over,
  });
  const wallMs = performance.now() - start;
  const solverMs = readCsv(out).records.reduce((sum, r) => sum + Number(r.time_ms || 0), 0);
  return { wallMs, solverMs, out };
}

const overhead = await timedRun({});
console.log(
  `overhead per task (1000 5x5, 1 worker): ${((overhead.wallMs - overhead.solverMs) / 1000).toFixed(3)} ms ` +
    `(wall ${overhead.wallMs.toFixed(0)} ms, solver ${overhead.solverMs.toFixed(0)} ms)`,
);

const everyStrategy = ['enumeration', 'overlap', 'backtrack', 'probe', 'sat'];
const one = await timedRun({ paths: [medium], strategies: everyStrategy, workers: 1 });
const two = await timedRun({ paths: [medium], strategies: everyStrategy, workers: 2 });
console.log(
  `200 20x20, all strategies: 1 worker ${one.wallMs.toFixed(0)} ms, 2 workers ${two.wallMs.toFixed(0)} ms, ratio ${(two.wallMs / one.wallMs).toFixed(2)}; ` +
    // Each thread compiles the solvers for itself: in a short run this warm-up is a large share.
    `summed solver time ${one.solverMs.toFixed(0)} ms and ${two.solverMs.toFixed(0)} ms`,
);

// The same puzzles five times over: the per-thread warm-up is then a small share of the run.
const oneLong = await timedRun({ paths: [medium], strategies: everyStrategy, workers: 1, repeat: 5 });
const twoLong = await timedRun({ paths: [medium], strategies: everyStrategy, workers: 2, repeat: 5 });
console.log(
  `200 20x20 x 5 repetitions, all strategies: 1 worker ${oneLong.wallMs.toFixed(0)} ms, 2 workers ${twoLong.wallMs.toFixed(0)} ms, ` +
    `ratio ${(twoLong.wallMs / oneLong.wallMs).toFixed(2)}`,
);

const samples: { rss: number; heap: number }[] = [];
// With --expose-gc, collect before each sample so that it shows what is retained, not garbage.
const collect = (globalThis as { gc?: () => void }).gc;
const sampler = setInterval(() => {
  collect?.();
  const m = process.memoryUsage();
  samples.push({ rss: m.rss, heap: m.heapUsed });
}, 250);
await timedRun({ repeat: 10, workers: 2 });
clearInterval(sampler);
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const tenth = Math.max(1, Math.floor(samples.length / 10));
const early = samples.slice(tenth, 2 * tenth);
const late = samples.slice(-tenth);
const avg = (xs: { heap: number }[]) => xs.reduce((s, x) => s + x.heap, 0) / xs.length;
console.log(
  `10000 tasks, parent heap: ${mb(avg(early))} MiB after the first tenth, ${mb(avg(late))} MiB in the last tenth; ` +
    `peak rss ${mb(Math.max(...samples.map((s) => s.rss)))} MiB (${samples.length} samples${collect ? ', after gc' : ''})`,
);
rmSync(dir, { recursive: true, force: true });
