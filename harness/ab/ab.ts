import { mkdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { loadDefinition, type Definition } from '../config/definition.js';
import { DEFAULT_MEMORY_MB, defaultWorkers } from '../run/run.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { suitePaths } from '../../corpus/suites.js';
import { compareRuns, loadRunTable, type CompareOptions, type CompareResult } from '../compare/compare.js';
import { cachedBuild, commitOf, nonobenchCheckout, workingTreeBuild, type Build } from './builds.js';
import { runInterleaved, type InterleavedResult } from './interleave.js';

export { defaultCacheDir, cachedBuild, cliOf, commitOf, nonobenchCheckout, type Build } from './builds.js';
export { combineRounds, roundOrder, runInterleaved, type InterleavedResult, type Side } from './interleave.js';
export { Interrupted } from './child.js';

/** `run` options ab sets itself, per round: the user gives rounds, not repetitions, and no output file. */
const OWN_RUN_OPTIONS = ['--repeat', '--out', '--resume', '--shard', '--shard-count', '-q', '--quiet'];

/** `run`'s options that take a value as the next argument (the rest are flags). */
const VALUE_OPTIONS = new Set(['-s', '--strategies', '--repeat', '--warmup', '--timeout', '--memory', '--workers', '--max-solutions', '--out', '--shard', '--shard-count', '--resume', '--param', '--config', '--suite', '--max-size']);

/**
 * The first of `run`'s options that ab sets itself, when `args` has one, read as `run` reads them:
 * a value option's value is no option (`--out` after `-s` is the strategy list), short flags may be
 * written together (`-qs sat` is `-q -s sat`), and nothing after `--` is an option.
 */
export function reservedRunOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (arg.startsWith('--')) {
      const name = arg.split('=')[0]!;
      if (OWN_RUN_OPTIONS.includes(name)) return name;
      if (VALUE_OPTIONS.has(name) && !arg.includes('=')) i++;
    } else if (arg.length > 1 && arg.startsWith('-')) {
      for (let k = 1; k < arg.length; k++) {
        const flag = `-${arg[k]}`;
        if (OWN_RUN_OPTIONS.includes(flag)) return flag;
        // A short option that takes a value takes the rest of this argument, or the next one.
        if (VALUE_OPTIONS.has(flag)) {
          if (k === arg.length - 1) i++;
          break;
        }
      }
    }
  }
  return undefined;
}

/** The warm-up both sides get unless the arguments or a definition set one: `run`'s default, which older builds lack. */
export const AB_WARMUP = 1;

/**
 * `run`'s arguments with everything written out that each build would otherwise decide for
 * itself, so that both sides run the same tasks with the same settings:
 * - the puzzles, relative to `cwd`: a `--suite`, a definition's puzzles, or none (the bundled
 *   corpus) would be looked up inside each build's own folder, so the sides would solve different
 *   files under different paths and share no pair;
 * - the warm-up (older builds default to none), the workers and the memory limit.
 * A definition (`--config`) is read here for its puzzles and settings; options given win, as in `run`.
 */
export function explicitRun(args: readonly string[], cwd: string, cores: number): string[] {
  const out: string[] = [];
  const given = new Set<string>();
  let puzzles = false;
  let definition: Definition | undefined;
  const shown = (path: string) => relative(cwd, path) || '.';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq >= 0 ? arg.slice(0, eq) : arg;
    const value = () => (eq >= 0 ? arg.slice(eq + 1) : (args[++i] ?? ''));
    if (name === '--suite') {
      out.push(...suitePaths(value()).map(shown));
      puzzles = true;
    } else if (name === '--config') {
      const file = value();
      definition = loadDefinition(resolve(cwd, file));
      out.push('--config', file);
    } else if (arg.startsWith('-') && arg !== '-') {
      given.add(name);
      out.push(arg);
      if (VALUE_OPTIONS.has(name) && eq < 0 && i + 1 < args.length) out.push(args[++i]!);
    } else {
      out.push(arg);
      puzzles = true;
    }
  }
  if (!puzzles) out.unshift(...(definition?.paths.length ? definition.paths : [BUNDLED_CORPUS]).map(shown));
  const settings = definition?.settings ?? {};
  const setting = (option: string, fromFile: number | undefined, fallback: number) => {
    if (!given.has(option) && fromFile === undefined) out.push(option, String(fallback));
  };
  setting('--warmup', settings.warmup, AB_WARMUP);
  setting('--workers', settings.workers, cores);
  setting('--memory', settings.memory, DEFAULT_MEMORY_MB);
  return out;
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
  /** Throws the usage error `run` would give for these arguments: the CLI passes `run`'s own check. */
  checkRunArgs?: (args: readonly string[]) => Promise<void>;
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
  // Everything that can be wrong with the arguments is found before any build, which takes a minute:
  // a `run` argument its run would refuse, a NEW ref that names no commit, an unknown suite, a
  // definition that cannot be read.
  await o.checkRunArgs?.(o.runArgs);
  const root = await nonobenchCheckout(o.cwd);
  await commitOf(root, o.baseRef);
  if (o.newRef !== undefined) await commitOf(root, o.newRef);
  const runArgs = explicitRun(o.runArgs, o.cwd, defaultWorkers());
  const base = await cachedBuild(root, o.baseRef, o.cacheDir, o.log);
  const next = o.newRef === undefined ? await workingTreeBuild(root, o.log) : await cachedBuild(root, o.newRef, o.cacheDir, o.log);
  return abBuilds(base, next, { ...o, runArgs });
}

/** A commit as the log names it: twelve digits, and `-dirty` kept for a working tree with uncommitted changes. */
export const shortCommit = (commit: string) => commit.replace(/^([0-9a-f]{12})[0-9a-f]*/, '$1');

/** Runs two builds interleaved over the same tasks: each side's rounds joined into one CSV. */
export async function abRounds(base: Build, next: Build, o: Pick<AbOptions, 'runArgs' | 'rounds' | 'outDir' | 'cwd' | 'log'>): Promise<InterleavedResult> {
  mkdirSync(o.outDir, { recursive: true });
  o.log(`A/B: base ${base.label} (${shortCommit(base.commit)}) against new ${next.label} (${shortCommit(next.commit)}), ${o.rounds} rounds, CSVs in ${o.outDir}`);
  return runInterleaved({ base, next, runArgs: o.runArgs, rounds: o.rounds, outDir: o.outDir, cwd: o.cwd, log: o.log });
}

/** Runs two builds interleaved and compares NEW against BASE. */
export async function abBuilds(base: Build, next: Build, o: Pick<AbOptions, 'runArgs' | 'rounds' | 'outDir' | 'cwd' | 'compare' | 'log'>): Promise<AbResult> {
  const runs = await abRounds(base, next, o);
  // Round r of each side ran beside round r of the other: strategies are judged over the rounds.
  const comparison = compareRuns(loadRunTable(runs.baseCsv), loadRunTable(runs.newCsv), { ...o.compare, pairedRounds: true });
  return { base, next, runs, comparison };
}
