/**
 * Speed figures for the `sat` strategy and its CDCL engine.
 *
 *   node dist/harness/bench/sat.js [--corpus PATH]... [--tournament-sample 100]
 *                                  [--random 0] [--size 30] [--density 0.5] [--seed 1] [--timeout 10]
 *                                  [--probe] [--encoding blocks|automaton] [--param key=value]...
 *
 * 1. Puzzles: every puzzle under the corpus paths (default: the bundled corpus, without its generated
 *    folder and with a sample of the tournament set), solved to two solutions with and without
 *    line propagation first: status counts, slowest puzzles, time totals.
 * 2. Random 3-SAT with 200 variables at ratio 4.26 (seeds 1–5): the engine's conflicts per second,
 *    and that of MiniSat, CaDiCaL and Kissat on the same instances, each when its binary is on the PATH.
 * 3. With --random N: N random puzzles (size × size, density) with a time limit each: how many
 *    exceed it, and the time distribution.
 * With --probe, every solve with line propagation also probes (the strategy's param `probe`);
 * --encoding chooses the strategy's CNF encoding (param `encoding`, default blocks); --param passes
 * any other strategy param (e.g. cellDecisions=true). --tournament-sample 0 leaves bundles out.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { listPuzzleFiles, loadPuzzles } from '../../corpus/load.js';
import type { Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { createRng } from '../../corpus/random.js';
import { writeDimacs } from '../../solvers/sat/dimacs/dimacs.js';
import { DEFAULT_ENCODING, encodingNamed, type EncodingName } from '../../solvers/sat/encodings/encode.js';
import { collectParam } from '../../harness/cli/options.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { sat } from '../../solvers/strategies/sat.js';
import { deadlineAfter, solveOptions, type SolveResult } from '../../solvers/api/types.js';

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true },
    'tournament-sample': { type: 'string', default: '100' },
    random: { type: 'string', default: '0' },
    size: { type: 'string', default: '30' },
    density: { type: 'string', default: '0.5' },
    seed: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '10' },
    probe: { type: 'boolean', default: false },
    encoding: { type: 'string', default: DEFAULT_ENCODING },
    param: { type: 'string', multiple: true },
  },
});

interface Timed {
  label: string;
  /** Wall-clock and CPU milliseconds (CPU time is steadier on a shared machine). */
  ms: number;
  cpuMs: number;
  result: SolveResult;
}

/** A usage problem: one line and exit 2, as the CLI does. */
function usage(message: string): never {
  console.error(`bench/sat: ${message}`);
  process.exit(2);
}

let encoding: EncodingName;
try {
  encoding = encodingNamed(args.encoding!);
} catch (error) {
  usage(`--encoding: ${(error as Error).message}`);
}
let extraParams: ReturnType<typeof collectParam> = {};
for (const pair of args.param ?? []) {
  try {
    extraParams = collectParam(pair, extraParams);
  } catch (error) {
    usage((error as Error).message);
  }
}
const paramText = () => Object.entries(extraParams).map(([k, v]) => `, ${k}=${v}`).join('');
/** The sat params of a run: probing (with --probe) needs line propagation. */
const satParams = (propagate: boolean) => ({ ...extraParams, propagate, probe: propagate && args.probe === true, encoding });

function timeSolve(puzzle: Puzzle, label: string, propagate: boolean, timeoutMs = Infinity): Timed {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = sat.solve(puzzle, solveOptions({ shouldStop: deadlineAfter(timeoutMs), params: satParams(propagate) }));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { label, ms, cpuMs: (used.user + used.system) / 1000, result };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

function statusCounts(runs: Timed[]): string {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(r.result.status, (counts.get(r.result.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${s} ${n}`).join(', ');
}

/** One line of figures for a set of runs, in wall-clock and CPU time. */
function summary(runs: Timed[]): string {
  const wall = runs.map((r) => r.ms).sort((a, b) => a - b);
  const cpu = runs.map((r) => r.cpuMs).sort((a, b) => a - b);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const conflicts = runs.reduce((a, r) => a + r.result.metrics.deadEnds, 0);
  return (
    `${statusCounts(runs)}; wall median ${fmt(quantile(wall, 0.5))}, max ${fmt(wall[wall.length - 1] ?? 0)}, total ${fmt(sum(wall))}, ` +
    `over 1 s: ${wall.filter((t) => t > 1000).length}; CPU median ${fmt(quantile(cpu, 0.5))}, max ${fmt(cpu[cpu.length - 1] ?? 0)}, ` +
    `over 1 s: ${cpu.filter((t) => t > 1000).length}; conflicts ${conflicts}`
  );
}

interface Entry {
  group: string;
  label: string;
  puzzle: Puzzle;
}

/** The corpus puzzles grouped by top folder, the tournament bundle sampled evenly. */
function corpusPuzzles(paths: string[], tournamentSample: number): Entry[] {
  const out: Entry[] = [];
  for (const root of paths) {
    for (const file of listPuzzleFiles(root)) {
      const rel = relative(root, file).split(sep).join('/');
      if (rel.startsWith('generated/')) continue;
      const group = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '.';
      const puzzles = loadPuzzles(file);
      if (tournamentSample === 0 && puzzles.length > 1) continue;
      const step = puzzles.length > tournamentSample ? Math.ceil(puzzles.length / tournamentSample) : 1;
      puzzles.forEach((puzzle, i) => {
        if (i % step === 0) out.push({ group, label: puzzles.length > 1 ? `${rel}#${i + 1}` : rel, puzzle });
      });
    }
  }
  return out;
}

function benchCorpus(): void {
  const paths = args.corpus ?? [BUNDLED_CORPUS];
  const entries = corpusPuzzles(paths, Number(args['tournament-sample']));
  const groups = [...new Set(entries.map((e) => e.group))];
  console.log(`## Corpus: ${entries.length} puzzles from ${paths.join(', ')} (two solutions asked, encoding ${encoding}${paramText()})\n`);
  for (const propagate of [true, false]) {
    // One untimed pass first so that JIT warm-up does not land on the first puzzles.
    for (const { puzzle } of entries.slice(0, 20)) sat.solve(puzzle, solveOptions({ params: satParams(propagate) }));
    const runs = entries.map(({ label, puzzle }) => timeSolve(puzzle, label, propagate));
    console.log(`propagate=${propagate}${satParams(propagate).probe ? ' probe=true' : ''}`);
    for (const group of groups) {
      const mine = runs.filter((_, i) => entries[i]!.group === group);
      console.log(`  ${group} (${mine.length}): ${summary(mine)}`);
    }
    const slowest = [...runs].sort((a, b) => b.cpuMs - a.cpuMs).slice(0, 5);
    for (const r of slowest)
      console.log(
        `    ${r.label}: ${r.result.status} ${fmt(r.ms)} wall, ${fmt(r.cpuMs)} CPU (conflicts ${r.result.metrics.deadEnds}, decisions ${r.result.metrics.decisions})`,
      );
  }
  console.log('');
}

/** Uniform random 3-SAT, the same generator as the engine tests. */
function random3Sat(seed: number, n: number, m: number): number[][] {
  const rng = createRng(seed);
  const clauses: number[][] = [];
  for (let i = 0; i < m; i++) {
    const vars = new Set<number>();
    while (vars.size < 3) vars.add(rng.nextBelow(n) + 1);
    clauses.push([...vars].map((v) => (rng.nextBelow(2) ? v : -v)));
  }
  return clauses;
}

/** An external SAT solver the 3-SAT figures are compared with, when its binary is on the PATH. */
interface ExternalSolver {
  name: string;
  args: (file: string) => string[];
  /** Conflicts and CPU seconds from its output (conflicts 0 when it prints none). */
  read: (out: string) => { conflicts: number; seconds: number };
}

const numberAfter = (pattern: RegExp, text: string, fallback = NaN) => Number(pattern.exec(text)?.[1] ?? fallback);

const EXTERNAL_SOLVERS: ExternalSolver[] = [
  {
    name: 'minisat',
    args: (file) => ['-verb=1', file],
    read: (out) => ({ conflicts: numberAfter(/conflicts\s*:\s*(\d+)/, out), seconds: numberAfter(/CPU time\s*:\s*([\d.]+)/, out) }),
  },
  {
    name: 'cadical',
    args: (file) => [file],
    read: (out) => ({ conflicts: numberAfter(/^c conflicts:\s+(\d+)/m, out, 0), seconds: numberAfter(/process time[^\n]*?([\d.]+)\s+seconds/, out) }),
  },
  {
    name: 'kissat',
    args: (file) => [file],
    read: (out) => ({ conflicts: numberAfter(/^c conflicts:\s+(\d+)/m, out, 0), seconds: numberAfter(/process-time[^\n]*?([\d.]+)\s+seconds/, out) }),
  },
];

const onPath = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' }).status === 0;

function bench3Sat(): void {
  const n = 200;
  const m = Math.round(4.26 * n);
  console.log(`## Random 3-SAT, ${n} variables, ${m} clauses (ratio 4.26), seeds 1-5\n`);
  const externals = EXTERNAL_SOLVERS.filter((x) => onPath(x.name));
  const dir = mkdtempSync(join(tmpdir(), 'nonobench-3sat-'));
  let ours = { conflicts: 0, seconds: 0 };
  const theirs = new Map(externals.map((x) => [x.name, { conflicts: 0, seconds: 0 }]));
  for (let seed = 1; seed <= 5; seed++) {
    const clauses = random3Sat(seed, n, m);
    const solver = new SatSolver(n);
    const cpu = process.cpuUsage();
    for (const c of clauses) solver.addClause(c);
    const outcome = solver.solve();
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    ours = { conflicts: ours.conflicts + solver.stats.conflicts, seconds: ours.seconds + seconds };
    let line = `seed ${seed}: ${outcome}, ours ${solver.stats.conflicts} conflicts in ${seconds.toFixed(3)} s CPU`;
    const file = join(dir, `${seed}.cnf`);
    writeFileSync(file, writeDimacs({ numVars: n, clauses }));
    for (const x of externals) {
      const r = spawnSync(x.name, x.args(file), { encoding: 'utf8' });
      const { conflicts, seconds: cpu } = x.read(r.stdout);
      const verdict = /UNSATISFIABLE/.test(r.stdout) ? 'unsat' : /SATISFIABLE/.test(r.stdout) ? 'sat' : '?';
      const total = theirs.get(x.name)!;
      total.conflicts += conflicts;
      total.seconds += cpu;
      line += `; ${x.name} ${verdict}, ${conflicts} conflicts in ${cpu.toFixed(3)} s`;
    }
    console.log(line);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`ours: ${Math.round(ours.conflicts / ours.seconds)} conflicts/s (CPU time)`);
  for (const x of externals) {
    const total = theirs.get(x.name)!;
    const version = execFileSync('sh', ['-c', `dpkg-query -W -f='\${Version}' ${x.name} 2>/dev/null || true`], { encoding: 'utf8' });
    console.log(`${x.name} ${version}: ${Math.round(total.conflicts / total.seconds)} conflicts/s (CPU time as it reports it)`);
  }
  if (externals.length === 0) console.log('minisat, cadical, kissat: none on the PATH, no comparison');
  console.log('');
}

function benchRandom(): void {
  const count = Number(args.random);
  if (!(count > 0)) return;
  const size = Number(args.size);
  const density = Number(args.density);
  const timeoutMs = Number(args.timeout) * 1000;
  const rng = createRng(Number(args.seed));
  console.log(`## ${count} random ${size}x${size} puzzles, density ${density}, seed ${args.seed}, limit ${args.timeout} s each, encoding ${encoding}${args.probe ? ', probe=true' : ''}${paramText()}\n`);
  const runs: Timed[] = [];
  for (let i = 0; i < count; i++) runs.push(timeSolve(generateRandomPuzzle(size, size, density, rng), `#${i + 1}`, true, timeoutMs));
  console.log(summary(runs));
  const wall = runs.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `wall p90 ${fmt(quantile(wall, 0.9))}, p99 ${fmt(quantile(wall, 0.99))}; over the limit (timeout): ${runs.filter((r) => r.result.status === 'timeout').length}`,
  );
  // The slowest, and every one stopped by the limit (on a busy machine the wall clock can pass the
  // limit well before that much CPU time was spent: compare the two).
  const slowest = [...runs].sort((a, b) => b.ms - a.ms);
  const shown = slowest.filter((r, i) => i < 3 || r.result.status === 'timeout');
  for (const r of shown)
    console.log(`    ${r.label}: ${r.result.status} ${fmt(r.ms)} wall, ${fmt(r.cpuMs)} CPU (conflicts ${r.result.metrics.deadEnds})`);
  console.log('');
}

benchCorpus();
bench3Sat();
benchRandom();
