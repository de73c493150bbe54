import { mkdirSync } from 'node:fs';
import { relative } from 'node:path';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { suitePaths } from '../../corpus/suites.js';
import { compareRuns, loadRunTable, type CompareOptions, type CompareResult } from '../compare/compare.js';
import { cachedBuild, nonobenchCheckout, workingTreeBuild, type Build } from './builds.js';
import { runInterleaved, type InterleavedResult } from './interleave.js';

export { defaultCacheDir, cachedBuild, cliOf, commitOf, nonobenchCheckout, type Build } from './builds.js';
export { combineRounds, roundOrder, RoundInterrupted, runInterleaved, type InterleavedResult, type Side } from './interleave.js';

/** `run` options ab sets itself, per round: the user gives rounds, not repetitions, and no output file. */
const OWN_RUN_OPTIONS = ['--repeat', '--out', '--resume', '--shard', '--shard-count', '-q', '--quiet'];

/** The first of `run`'s options that ab sets itself, when `args` has one. */
export function reservedRunOption(args: readonly string[]): string | undefined {
  for (const arg of args) {
    const name = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    if (OWN_RUN_OPTIONS.includes(name)) return name;
  }
  return undefined;
}

/** The warm-up both sides get unless the arguments set one (or a definition may): `run`'s default, which older builds lack. */
export const AB_WARMUP = '1';

/**
 * `run`'s arguments with the warm-up written out: each build would otherwise use its own default,
 * and a commit from before `--warmup` defaulted to 1 would run cold (compare then refuses the pair).
 */
export function withWarmup(args: readonly string[]): string[] {
  const given = args.some((a) => ['--warmup', '--config'].includes(a.split('=')[0]!));
  return given ? [...args] : [...args, '--warmup', AB_WARMUP];
}

/** `run`'s options that take a value as the next argument (the rest are flags). */
const VALUE_OPTIONS = new Set(['-s', '--strategies', '--repeat', '--warmup', '--timeout', '--memory', '--workers', '--max-solutions', '--out', '--shard', '--shard-count', '--resume', '--param', '--config', '--suite', '--max-size']);

/**
 * `run`'s arguments with the puzzles written out, relative to `cwd`: a `--suite`, or no puzzles at
 * all (the bundled corpus), would otherwise be found inside each build's own folder, so the two
 * sides would solve different files under different paths and share no pair.
 */
export function explicitPuzzles(args: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  let puzzles = false;
  let definition = false;
  const shown = (path: string) => relative(cwd, path) || '.';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = () => (eq >= 0 ? arg.slice(eq + 1) : (args[++i] ?? ''));
    if (name === '--suite') {
      out.push(...suitePaths(value()).map(shown));
      puzzles = true;
    } else if (arg.startsWith('-') && arg !== '-') {
      if (name === '--config') definition = true;
      out.push(arg);
      if (VALUE_OPTIONS.has(name) && eq < 0 && i + 1 < args.length) out.push(args[++i]!);
    } else {
      out.push(arg);
      puzzles = true;
    }
  }
  return puzzles || definition ? out : [shown(BUNDLED_CORPUS), ...out];
}

export interface AbOptions {
  /** Git refs of the two sides; NEW undefined: the working tree, built in place. */
  baseRef: string;
  newRef?: string;
  /** `run`'s puzzles and options, the same for both sides. */
  runArgs: string[];
  /** Rounds, each one repetition of every task on both sides. */
  rounds: number;
  outDir: string;
  cacheDir: string;
  cwd: string;
  compare: CompareOptions;
  log: (line: string) => void;
}

export interface AbResult {
  base: Build;
  next: Build;
  runs: InterleavedResult;
  comparison: CompareResult;
}

/** Builds both sides (each commit once, then from the cache), runs them interleaved and compares them. */
export async function abRun(o: AbOptions): Promise<AbResult> {
  const reserved = reservedRunOption(o.runArgs);
  if (reserved) throw new Error(`${reserved}: ab sets it itself (give --rounds for repetitions, --out-dir for the CSVs)`);
  const root = await nonobenchCheckout(o.cwd);
  const base = await cachedBuild(root, o.baseRef, o.cacheDir, o.log);
  const next = o.newRef === undefined ? await workingTreeBuild(root, o.log) : await cachedBuild(root, o.newRef, o.cacheDir, o.log);
  return abBuilds(base, next, { ...o, runArgs: withWarmup(explicitPuzzles(o.runArgs, o.cwd)) });
}

/** Runs two builds interleaved and compares NEW against BASE. */
export async function abBuilds(base: Build, next: Build, o: Pick<AbOptions, 'runArgs' | 'rounds' | 'outDir' | 'cwd' | 'compare' | 'log'>): Promise<AbResult> {
  mkdirSync(o.outDir, { recursive: true });
  o.log(`A/B: base ${base.label} (${base.commit.slice(0, 12)}) against new ${next.label} (${next.commit.slice(0, 12)}), ${o.rounds} rounds, CSVs in ${o.outDir}`);
  const runs = await runInterleaved({ base, next, runArgs: o.runArgs, rounds: o.rounds, outDir: o.outDir, cwd: o.cwd, log: o.log });
  const comparison = compareRuns(loadRunTable(runs.baseCsv), loadRunTable(runs.newCsv), o.compare);
  return { base, next, runs, comparison };
}
