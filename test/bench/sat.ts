/**
 * Speed figures for the `sat` strategy and its CDCL engine.
 *
 *   node dist/test/bench/sat.js [--only corpus,3sat,random] [--corpus PATH]... [--tournament-sample 100]
 *                               [--3sat-vars 250] [--3sat-seeds 20|FIRST-LAST]
 *                               [--random 0] [--size 30] [--density 0.5] [--seed 1] [--timeout 10]
 *                               [--probe] [--encoding blocks|automaton] [--param key=value]...
 *
 * 1. corpus: every puzzle under the corpus paths (default: the bundled corpus, without its generated
 *    folder and with a sample of the tournament set), solved to two solutions with and without
 *    line propagation first: status counts, slowest puzzles, time totals.
 * 2. 3sat: random 3-SAT at ratio 4.26 (250 variables, seeds 1–20 by default): the engine's conflicts
 *    per second of CPU time, and those of MiniSat, CaDiCaL and Kissat on the same DIMACS files, each
 *    when its binary is on the PATH, with every solver's conflicts per instance.
 * 3. random (with --random N): N random puzzles (size × size, density) with a time limit each: how
 *    many exceed it, and the time distribution.
 * --only runs the parts named (all three by default, random only with --random N).
 * With --probe, every solve with line propagation also probes (the strategy's param `probe`);
 * --encoding chooses the strategy's CNF encoding (param `encoding`, default blocks); --param passes
 * any other strategy param (e.g. cellDecisions=true). --tournament-sample 0 leaves bundles out.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { listPuzzleFiles, loadPuzzles } from '../../corpus/load.js';
import type { Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { createRng } from '../../corpus/random.js';
import { parseDimacs, writeDimacs } from '../../solvers/sat/dimacs/dimacs.js';
import { DEFAULT_ENCODING, encodingNamed, type EncodingName } from '../../solvers/sat/encodings/encode.js';
import { collectParam } from '../../harness/cli/options.js';
import { SatSolver } from '../../solvers/sat/engine/solver.js';
import { sat } from '../../solvers/strategies/sat.js';
import { deadlineAfter, solveOptions, type SolveResult } from '../../solvers/api/types.js';
import { randomKSat } from '../sat/sat-helpers.js';

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
    only: { type: 'string' },
    '3sat-vars': { type: 'string', default: '250' },
    '3sat-seeds': { type: 'string', default: '20' },
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
    `over 1 s: ${wall.filter((t) => t > 1000).length}; CPU median ${fmt(quantile(cpu, 0.5))}, max ${fmt(cpu[cpu.length - 1] ?? 0)}, total ${fmt(sum(cpu))}, ` +
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

/** An external SAT solver the 3-SAT figures are compared with, when its binary is on the PATH. */
interface ExternalSolver {
  name: string;
  args: (file: string) => string[];
  /** Conflicts and the CPU seconds it reports itself (conflicts 0 when it prints none). */
  read: (out: string) => { conflicts: number; seconds: number };
  /** What its own figure of seconds is. */
  clock: string;
}

const numberAfter = (pattern: RegExp, text: string, fallback = NaN) => Number(pattern.exec(text)?.[1] ?? fallback);

const EXTERNAL_SOLVERS: ExternalSolver[] = [
  {
    name: 'minisat',
    args: (file) => ['-verb=1', file],
    read: (out) => ({ conflicts: numberAfter(/conflicts\s*:\s*(\d+)/, out), seconds: numberAfter(/CPU time\s*:\s*([\d.]+)/, out) }),
    clock: 'its "CPU time": user time, parsing included',
  },
  {
    name: 'cadical',
    args: (file) => [file],
    read: (out) => ({ conflicts: numberAfter(/^c conflicts:\s+(\d+)/m, out, 0), seconds: numberAfter(/process time[^\n]*?([\d.]+)\s+seconds/, out) }),
    clock: 'its "total process time", parsing included, to 0.01 s',
  },
  {
    name: 'kissat',
    args: (file) => [file],
    read: (out) => ({ conflicts: numberAfter(/^c conflicts:\s+(\d+)/m, out, 0), seconds: numberAfter(/process-time[^\n]*?([\d.]+)\s+seconds/, out) }),
    clock: 'its "process-time", parsing included',
  },
];

/** The seeds of `--3sat-seeds`: "N" is 1 to N, "A-B" is A to B; undefined when malformed. */
function seedRange(text: string): [number, number] | undefined {
  const m = /^(?:(\d+)-)?(\d+)$/.exec(text);
  const range: [number, number] = [m?.[1] === undefined ? 1 : Number(m[1]), Number(m?.[2])];
  return m && range[0] >= 1 && range[0] <= range[1] ? range : undefined;
}

const onPath = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' }).status === 0;

/** One solver's result on one instance. */
interface SatRun {
  verdict: 'sat' | 'unsat' | '?';
  conflicts: number;
  /** CPU seconds as the solver reports them (ours: this process's, see solveOurs). */
  seconds: number;
  /** CPU seconds of the whole child process, start-up and exit included (externals only). */
  processSeconds?: number;
}

/**
 * Our engine on a DIMACS file: read, parse, add the clauses, solve. The CPU time (user + system
 * of this process) covers all of it, as the external solvers' own figures cover their parsing.
 */
function solveOurs(file: string): SatRun {
  const cpu = process.cpuUsage();
  const cnf = parseDimacs(readFileSync(file, 'utf8'), file);
  const solver = new SatSolver(cnf.numVars);
  for (const c of cnf.clauses) solver.addClause(c);
  const outcome = solver.solve();
  const used = process.cpuUsage(cpu);
  if (outcome === 'sat' && !cnf.clauses.every((c) => c.some((l) => solver.value(Math.abs(l)) === l > 0)))
    throw new Error(`${file}: our model does not satisfy every clause`);
  return { verdict: outcome === 'unknown' ? '?' : outcome, conflicts: solver.stats.conflicts, seconds: (used.user + used.system) / 1e6 };
}

/** An external solver on a DIMACS file; the shell's `times` gives the child's user and system time. */
function solveExternal(x: ExternalSolver, file: string): SatRun {
  const r = spawnSync('sh', ['-c', '"$@"; times', 'sh', x.name, ...x.args(file)], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const { conflicts, seconds } = x.read(r.stdout);
  // The last line of `times`: the children's user and system time, as "1m2.5s 0m0.01s".
  const child = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/.exec(r.stdout);
  const processSeconds = child ? 60 * Number(child[1]) + Number(child[2]) + 60 * Number(child[3]) + Number(child[4]) : NaN;
  const verdict = /^s UNSATISFIABLE|^UNSATISFIABLE/m.test(r.stdout) ? 'unsat' : /^s SATISFIABLE|^SATISFIABLE/m.test(r.stdout) ? 'sat' : '?';
  return { verdict, conflicts, seconds, processSeconds };
}

const perSecond = (conflicts: number, seconds: number) => Math.round(conflicts / seconds).toLocaleString('en-US');

/**
 * Conflicts per second of CPU time on random 3-SAT, ours beside the external solvers on the very
 * same DIMACS files. Each instance is solved by every solver in turn, ours first on odd seeds and
 * last on even ones, so a drift in the machine's speed falls on both sides alike; an uncounted
 * instance first warms up the JIT.
 */
function bench3Sat(): void {
  const n = Number(args['3sat-vars']);
  const [first, last] = seedRange(args['3sat-seeds']!)!;
  const m = Math.round(4.26 * n);
  const externals = EXTERNAL_SOLVERS.filter((x) => onPath(x.name));
  console.log(`## Random 3-SAT, ${n} variables, ${m} clauses (ratio 4.26), seeds ${first}-${last}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'nonobench-3sat-'));
  const writeInstance = (seed: number, vars: number) => {
    const file = join(dir, `${vars}-${seed}.cnf`);
    writeFileSync(file, writeDimacs({ numVars: vars, clauses: randomKSat(seed, vars, Math.round(4.26 * vars)) }));
    return file;
  };
  solveOurs(writeInstance(0, 200)); // JIT warm-up, not counted
  const names = ['ours', ...externals.map((x) => x.name)];
  const totals = new Map(names.map((name) => [name, { conflicts: 0, seconds: 0, processSeconds: 0 }]));
  let disagreements = 0;
  for (let seed = first; seed <= last; seed++) {
    const file = writeInstance(seed, n);
    const runs = new Map<string, SatRun>();
    const oursFirst = seed % 2 === 1;
    if (oursFirst) runs.set('ours', solveOurs(file));
    for (const x of externals) runs.set(x.name, solveExternal(x, file));
    if (!oursFirst) runs.set('ours', solveOurs(file));
    const verdicts = new Set([...runs.values()].map((r) => r.verdict));
    if (verdicts.size > 1) disagreements++;
    const cells = names.map((name) => {
      const r = runs.get(name)!;
      const total = totals.get(name)!;
      total.conflicts += r.conflicts;
      total.seconds += r.seconds;
      total.processSeconds += r.processSeconds ?? 0;
      return `${name} ${r.conflicts} in ${r.seconds.toFixed(3)} s`;
    });
    console.log(`seed ${seed}: ${[...verdicts].join('/')}${verdicts.size > 1 ? ' (DISAGREE)' : ''}; ${cells.join('; ')}`);
  }
  rmSync(dir, { recursive: true, force: true });
  const ours = totals.get('ours')!;
  console.log(`\nours: ${ours.conflicts} conflicts in ${ours.seconds.toFixed(2)} s, ${perSecond(ours.conflicts, ours.seconds)} conflicts/s (CPU time of this process, parsing included)`);
  for (const x of externals) {
    const total = totals.get(x.name)!;
    const version = execFileSync('sh', ['-c', `dpkg-query -W -f='\${Version}' ${x.name} 2>/dev/null || true`], { encoding: 'utf8' });
    console.log(
      `${x.name} ${version}: ${total.conflicts} conflicts in ${total.seconds.toFixed(2)} s, ${perSecond(total.conflicts, total.seconds)} conflicts/s ` +
        `(${x.clock}; whole process, user + system: ${total.processSeconds.toFixed(2)} s, ${perSecond(total.conflicts, total.processSeconds)}/s)`,
    );
  }
  const minisat = totals.get('minisat');
  if (minisat) console.log(`ours / minisat, conflicts per second: ${((ours.conflicts / ours.seconds) / (minisat.conflicts / minisat.seconds)).toFixed(2)}`);
  if (externals.length === 0) console.log('minisat, cadical, kissat: none on the PATH, no comparison');
  console.log('');
  if (disagreements > 0) {
    console.error(`bench/sat: the solvers disagree on ${disagreements} instance(s)`);
    process.exitCode = 1;
  }
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

const parts = new Set((args.only ?? 'corpus,3sat,random').split(',').map((p) => p.trim()));
for (const part of parts) if (!['corpus', '3sat', 'random'].includes(part)) usage(`--only: unknown part "${part}" (known: corpus, 3sat, random)`);
if (!(Number.isInteger(Number(args['3sat-vars'])) && Number(args['3sat-vars']) >= 3)) usage(`--3sat-vars expects a whole number ≥ 3, got "${args['3sat-vars']}"`);
if (!seedRange(args['3sat-seeds']!)) usage(`--3sat-seeds expects N (seeds 1 to N) or FIRST-LAST, got "${args['3sat-seeds']}"`);
if (parts.has('corpus')) benchCorpus();
if (parts.has('3sat')) bench3Sat();
if (parts.has('random')) benchRandom();
