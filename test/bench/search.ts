/**
 * Speed figures of the propagation + search strategies.
 *
 *   node dist/test/bench/search.js [--strategy backtrack] [--set corpus,random,tournament]
 *        [--count 1000] [--size 30] [--density 0.5] [--seed 2024] [--timeout 60000] [--runs 5]
 *        [--params '{"probing":true}'] [--corpus DIR]
 *
 * corpus:     each webpbn and seed puzzle, warm (three unmeasured passes over them all first), median of --runs runs,
 *             uniqueness check (maxSolutions 2).
 * random:     --count random puzzles (each cell filled with probability --density, seeded), one run
 *             each with a --timeout deadline, times binned as in Jan Wolter's solver survey.
 * tournament: the TAAI 2011 set, one run each: statuses, times, and a check that every reported
 *             solution satisfies the clues and that a unique puzzle's answer is the recorded one.
 */
import { median } from '../../harness/results/median.js';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { isSolution } from '../../corpus/grid.js';
import { loadPuzzles } from '../../corpus/load.js';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { createRng, deriveSeed } from '../../corpus/random.js';
import type { Puzzle } from '../../corpus/model.js';
import { loadStrategy } from '../../solvers/strategies/registry.js';
import { deadlineAfter, type SolveResult, type Strategy } from '../../solvers/api/types.js';

/** Upper bounds (seconds) of the bins of Jan Wolter's survey; the last bin is open. */
const BINS = [0.1, 0.2, 0.5, 1, 4, 10, 30, 60, 120];
const binLabel = (i: number): string =>
  i === 0 ? `< ${BINS[0]}` : i === BINS.length ? `> ${BINS[BINS.length - 1]}` : `${BINS[i - 1]}-${BINS[i]}`;

const { values } = parseArgs({
  options: {
    strategy: { type: 'string', default: 'backtrack' },
    set: { type: 'string', default: 'corpus,random,tournament' },
    count: { type: 'string', default: '1000' },
    size: { type: 'string', default: '30' },
    density: { type: 'string', default: '0.5' },
    seed: { type: 'string', default: '2024' },
    timeout: { type: 'string', default: '60000' },
    runs: { type: 'string', default: '5' },
    params: { type: 'string' },
    corpus: { type: 'string', default: BUNDLED_CORPUS },
  },
});

const strategy = await loadStrategy(values.strategy!);
const params = values.params ? (JSON.parse(values.params) as Record<string, number | boolean | string>) : undefined;
const timeoutMs = Number(values.timeout);
const sets = values.set!.split(',');

function solveTimed(s: Strategy, puzzle: Puzzle, maxSolutions: number, deadlineMs: number): { ms: number; result: SolveResult } {
  const t0 = performance.now();
  const result = s.solve(puzzle, { maxSolutions, shouldStop: deadlineAfter(deadlineMs), ...(params ? { params } : {}) });
  if (result instanceof Promise) throw new Error(`bench/search measures synchronous strategies; ${s.name} returns a Promise`);
  return { ms: performance.now() - t0, result };
}

/** Prints the distribution of times (ms) over the survey's bins. */
function printBins(times: number[]): void {
  const bins = new Array<number>(BINS.length + 1).fill(0);
  for (const ms of times) {
    let b = BINS.findIndex((limit) => ms / 1000 < limit);
    if (b < 0) b = BINS.length;
    bins[b]!++;
  }
  bins.forEach((n, i) => console.log(`  ${binLabel(i).padEnd(8)} s  ${String(n).padStart(5)}  ${((100 * n) / times.length).toFixed(1).padStart(5)} %`));
}


function checkSolutions(puzzle: Puzzle, result: SolveResult): string {
  for (const sol of result.solutions) if (!isSolution(puzzle, sol)) return 'REPORTED A NON-SOLUTION';
  return '';
}

console.log(`strategy ${strategy.name}${params ? ` params ${JSON.stringify(params)}` : ''}, node ${process.version}`);

if (sets.includes('corpus')) {
  const runs = Math.max(3, Number(values.runs));
  console.log(`\n== corpus puzzles: warm, median of ${runs} runs each, maxSolutions 2`);
  const dirs = ['webpbn', 'seeds'].map((d) => join(values.corpus!, d)).filter((d) => existsSync(d));
  const puzzles = dirs.flatMap((dir) => loadPuzzles(dir));
  // Warm every code path (one- and two-word lines, probing) before measuring anything.
  for (let i = 0; i < 3; i++) for (const puzzle of puzzles) solveTimed(strategy, puzzle, 2, timeoutMs);
  for (const puzzle of puzzles) {
    const times: number[] = [];
    let last: SolveResult | undefined;
    for (let i = 0; i < runs; i++) {
      const { ms, result } = solveTimed(strategy, puzzle, 2, timeoutMs);
      times.push(ms);
      last = result;
    }
    const r = last!;
    const goal =
      puzzle.goal && r.status === 'unique' ? (r.solutions[0]!.every((v, i) => v === puzzle.goal![i]) ? 'goal ok' : 'GOAL DIFFERS') : '';
    console.log(
      `${(puzzle.meta.catalogue ?? puzzle.meta.source ?? puzzle.id).padEnd(34).slice(0, 34)} ${`${puzzle.width}x${puzzle.height}`.padStart(6)} ` +
        `${r.status.padEnd(9)} ${median(times).toFixed(2).padStart(9)} ms  decisions ${r.metrics.decisions} deadEnds ${r.metrics.deadEnds} ` +
        `lineSolves ${r.metrics.lineSolves} ${goal} ${checkSolutions(puzzle, r)}`,
    );
  }
}

if (sets.includes('random')) {
  const count = Number(values.count);
  const size = Number(values.size);
  const density = Number(values.density);
  const seed = Number(values.seed);
  console.log(`\n== ${count} random ${size}x${size} puzzles, density ${density}, seed ${seed}, timeout ${timeoutMs} ms, maxSolutions 2`);
  // Warm the code up on a few puzzles outside the measured series.
  for (let i = 0; i < 5; i++) solveTimed(strategy, generateRandomPuzzle(size, size, density, createRng(deriveSeed(seed ^ 0xffff, i))), 2, timeoutMs);
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  const slowest: { i: number; ms: number; status: string; decisions: number }[] = [];
  let bad = 0;
  for (let i = 0; i < count; i++) {
    const puzzle = generateRandomPuzzle(size, size, density, createRng(deriveSeed(seed, i)));
    const { ms, result } = solveTimed(strategy, puzzle, 2, timeoutMs);
    if (checkSolutions(puzzle, result)) bad++;
    times.push(ms);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    slowest.push({ i, ms, status: result.status, decisions: result.metrics.decisions });
  }
  slowest.sort((a, b) => b.ms - a.ms);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(`statuses ${JSON.stringify(statuses)}; total ${(total / 1000).toFixed(1)} s; median ${median(times).toFixed(1)} ms; wrong solutions ${bad}`);
  printBins(times);
  console.log(`slowest: ${slowest.slice(0, 5).map((s) => `#${s.i} ${s.ms.toFixed(0)} ms ${s.status} (${s.decisions} decisions)`).join('; ')}`);
}

if (sets.includes('tournament')) {
  const file = join(values.corpus!, 'tournament', 'taai2011-questions.txt');
  const puzzles = loadPuzzles(file);
  console.log(`\n== tournament set: ${puzzles.length} puzzles, one run each, timeout ${timeoutMs} ms, maxSolutions 2`);
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  let bad = 0;
  let uniqueWithoutRecord = 0;
  for (const puzzle of puzzles) {
    const { ms, result } = solveTimed(strategy, puzzle, 2, timeoutMs);
    times.push(ms);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    if (checkSolutions(puzzle, result)) bad++;
    if (result.status === 'unique' && puzzle.goal && !result.solutions[0]!.every((v, i) => v === puzzle.goal![i])) uniqueWithoutRecord++;
  }
  const total = times.reduce((a, b) => a + b, 0);
  console.log(
    `statuses ${JSON.stringify(statuses)}; total ${(total / 1000).toFixed(1)} s; median ${median(times).toFixed(1)} ms; ` +
      `max ${Math.max(...times).toFixed(0)} ms; wrong solutions ${bad}; unique but not the recorded solution ${uniqueWithoutRecord}`,
  );
  printBins(times);
}
