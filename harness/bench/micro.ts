import { Bench } from 'tinybench';
import { join } from 'node:path';
import { loadPuzzle } from '../../corpus/load.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { createRng } from '../../corpus/random.js';
import type { Puzzle } from '../../corpus/model.js';
import { randomLineCases, type LineCase } from '../run/calibration.js';
import type { LineSolver } from '../../solvers/line/line-solver.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { OverlapLineSolver } from '../../solvers/line/overlap.js';
import { deadlineAfter, type SolveResult, type Strategy } from '../../solvers/api/types.js';
import { formatTable } from '../io/table.js';
import { Failure, thrownMessage } from '../io/thrown.js';
import { checkAnswer, malformed } from '../results/verify.js';

/** Solves the cases in turn, forever: one call, one line solve (the unit of the line benchmarks). */
function lineSolveLoop(solver: LineSolver, cases: LineCase[]): () => void {
  const scratch = new Uint8Array(cases[0]!.state.length);
  let i = 0;
  return () => {
    const c = cases[i++ % cases.length]!;
    scratch.set(c.state);
    solver.solve(c.clue, scratch, scratch.length);
  };
}

/** The fixed puzzle set of the micro-benchmarks: small, quick for every strategy, in the bundled corpus. */
export const BENCH_PUZZLES = [
  'webpbn/1.non',
  'webpbn/21.non',
  'webpbn/27.non',
  'gnonograms/spade.non',
  'generated/20x20/001.non',
];

/** Solutions asked of each solve: uniqueness is part of what is timed. */
const BENCH_MAX_SOLUTIONS = 2;

export const BENCH_COLUMNS = ['name', 'kind', 'mean_ms', 'p75_ms', 'p99_ms', 'samples', 'ops_per_s', 'rme_pct'] as const;
export type BenchRow = Record<(typeof BENCH_COLUMNS)[number], string | number>;

export interface BenchOptions {
  strategies: Strategy[];
  /** Time budget per benchmark, ms. */
  timeMs: number;
  /** Per-solve limit, ms, so a slow strategy cannot stall the benchmark. */
  solveTimeoutMs: number;
  puzzles?: Puzzle[];
}

/** Runs the micro-benchmarks: the line solvers on random 30-cell lines, then each strategy on each bench puzzle. */
export async function runBenchmarks(options: BenchOptions): Promise<BenchRow[]> {
  const bench = new Bench({ time: options.timeMs, warmupTime: Math.min(100, options.timeMs), iterations: 5 });
  const cases = randomLineCases(createRng(2026), 4096, 30, 5);
  bench.add('line exact 30 cells 5 blocks', lineSolveLoop(new ExactLineSolver(), cases));
  bench.add('line overlap 30 cells 5 blocks', lineSolveLoop(new OverlapLineSolver(), cases));
  const puzzles = options.puzzles ?? BENCH_PUZZLES.map((p) => loadPuzzle(join(BUNDLED_CORPUS, p)));
  for (const strategy of options.strategies)
    for (const puzzle of puzzles) {
      const name = `${strategy.name} ${puzzle.meta.title ?? puzzle.id} ${puzzle.width}x${puzzle.height}`;
      const solve = () => strategy.solve(puzzle, { maxSolutions: BENCH_MAX_SOLUTIONS, shouldStop: deadlineAfter(options.solveTimeoutMs) });
      // One untimed solve first (tinybench's own detection would make it anyway): a strategy that
      // answers through a Promise is timed until the Promise settles, one that answers at once is
      // timed synchronously, with no await in its path; a failing one is named before anything is timed.
      let first: ReturnType<Strategy['solve']>;
      let problem: string | null;
      try {
        first = solve();
        problem = answerProblem(puzzle, await first);
      } catch (err) {
        throw new Failure(benchFailure(name, err));
      }
      // A wrong or unfinished answer is no measure of the strategy's speed: checked as `run` checks it, never timed.
      if (problem) throw new Failure(benchFailure(name, problem));
      if (isThenable(first))
        bench.add(name, async () => {
          await solve();
        }, { async: true });
      else
        bench.add(name, () => {
          solve();
        }, { async: false });
    }
  await bench.run();
  // A solve that fails only later, while timed, leaves its task errored: one line, not a row without figures.
  for (const task of bench.tasks) {
    const r = task.result as { state: string; error?: unknown };
    if (r.state === 'errored') throw new Failure(benchFailure(task.name, r.error));
  }
  return bench.tasks.map((task) => {
    const r = task.result as { state: string; latency?: { mean: number; p75: number; p99: number; samplesCount: number; rme: number } };
    const l = r.latency;
    return {
      name: task.name,
      kind: task.name.startsWith('line ') ? 'line' : 'strategy',
      mean_ms: l ? round(l.mean) : '',
      p75_ms: l ? round(l.p75) : '',
      p99_ms: l ? round(l.p99) : '',
      samples: l?.samplesCount ?? 0,
      // The rate the solves ran at: tinybench's throughput.mean averages each sample's own 1000/latency,
      // which the many fast samples pull far above it (2–3× for the strategies' uneven solves).
      ops_per_s: l && l.mean > 0 ? Math.round(1000 / l.mean) : '',
      rme_pct: l ? round(l.rme) : '',
    };
  });
}

/** Why the first solve's result cannot be timed as a solve (as `run` would record it, `error`, `wrong` or `timeout`), or null. */
function answerProblem(puzzle: Puzzle, result: SolveResult): string | null {
  const problem = malformed(puzzle, result, BENCH_MAX_SOLUTIONS) ?? checkAnswer(puzzle, result, BENCH_MAX_SOLUTIONS);
  if (problem) return `wrong answer: ${problem}`;
  return result.status === 'timeout' ? 'timeout: no answer within the per-solve limit' : null;
}

const round = (x: number) => Number(x.toPrecision(4));

const isThenable = (x: unknown): x is PromiseLike<unknown> =>
  x !== null && (typeof x === 'object' || typeof x === 'function') && typeof (x as { then?: unknown }).then === 'function';

const benchFailure = (name: string, err: unknown) => `bench "${name}" failed: ${thrownMessage(err)}`;

export function formatBench(rows: BenchRow[]): string {
  return formatTable(
    ['benchmark', 'mean ms', 'p75 ms', 'p99 ms', 'samples', 'ops/s'],
    rows.map((r) => [String(r.name), String(r.mean_ms), String(r.p75_ms), String(r.p99_ms), String(r.samples), String(r.ops_per_s)]),
  );
}
