import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { DEFAULT_MAX_SIZE } from '../../corpus/validate.js';
import { baselineConfigurations, recordingRoot, refuseDifferentWarmup, withAdvisoryTime, type BenchCheckOptions } from '../compare/baseline.js';
import { BASELINE_COLUMNS, baselineConfig, type BaselineConfig } from '../compare/baseline-config.js';
import { compareRuns, loadRunTable, type CompareResult } from '../compare/compare.js';
import type { ConfigSpec } from '../config/configurations.js';
import { runEnvironment } from '../run/environment.js';
import { abRounds } from './ab.js';
import { cachedBuild, cliOf, nonobenchCheckout, type Build } from './builds.js';

/**
 * bench-check with its time verdict from an A/B run: the baseline's statuses and counters are
 * exact facts of the code and stay the reference, while its times were measured on another day,
 * under another load. So the baseline's own commit is built (once, cached) and run interleaved
 * with this checkout; time is judged between those two runs, statuses and counters against the
 * stored baseline.
 */

export interface AbCheckOptions extends BenchCheckOptions {
  cacheDir: string;
  /** Rounds of each side; the baseline's repetitions when absent. */
  rounds?: number;
  /** Throws the usage error `run` would give for these arguments: the CLI passes `run`'s own check. */
  checkRunArgs?: (args: readonly string[]) => Promise<void>;
}

export interface AbCheckResult {
  config: BaselineConfig;
  base: Build;
  /** This checkout's rounds against the stored baseline: statuses and counters (its time verdicts do not count). */
  facts: CompareResult;
  /** This checkout against the baseline's commit, run interleaved: the time verdict. */
  time: CompareResult;
  /** This checkout's rounds as one run CSV. */
  rerun: string;
  tasksRun: number;
  exitCode: 0 | 1 | 2;
}

/** One `--strategies` item for a configuration, refused when its parts cannot be written in one. */
export function configItem(c: ConfigSpec): string {
  if (c.external) throw new Error(`configuration ${c.name ?? c.strategy} runs an external program: bench-check --ab reruns built-in strategies and plugins only (run it without --ab)`);
  const parts = [c.name !== undefined ? `${c.name}=${c.strategy}` : c.strategy, ...Object.entries(c.params ?? {}).map(([k, v]) => `${k}=${String(v)}`)];
  const bad = parts.find((p) => /[,:]/.test(p));
  if (bad !== undefined) throw new Error(`configuration ${c.name ?? c.strategy}: "${bad}" has a comma or colon, which a --strategies item cannot hold (run bench-check without --ab)`);
  return parts.join(':');
}

/** `run`'s arguments for the run a baseline records, one repetition of it. */
export function baselineRunArgs(config: BaselineConfig, strategies: ConfigSpec[], options: BenchCheckOptions, defaults: { workers: number; memoryMb: number; warmup: number }): string[] {
  const args = [...config.paths, '--strategies', strategies.map(configItem).join(',')];
  args.push('--timeout', String(config.timeoutS), '--max-solutions', String(config.maxSolutions));
  args.push('--warmup', String(options.warmup ?? config.warmup ?? defaults.warmup));
  args.push('--workers', String(options.workers ?? config.workers ?? defaults.workers));
  args.push('--memory', String(options.memoryMb ?? config.memoryMb ?? defaults.memoryMb));
  args.push('--max-size', String(options.maxSize ?? Math.max(DEFAULT_MAX_SIZE, config.largestSide ?? 0)));
  for (const [k, v] of Object.entries(options.params ?? {})) args.push('--param', `${k}=${String(v)}`);
  return args;
}

/** The baseline's commit, which must be a commit (not a working tree with changes) found in this checkout. */
function baselineCommit(config: BaselineConfig, file: string): string {
  if (!config.commit) throw new Error(`${file}: its rows do not name one git commit (column git_commit), so there is no commit to run A/B against: run bench-check without --ab`);
  if (config.commit.endsWith('-dirty'))
    throw new Error(`${file}: was recorded from a working tree with uncommitted changes (${config.commit}), which no commit reproduces: record it again from a clean checkout, or run bench-check without --ab`);
  return config.commit;
}

export async function benchCheckAb(options: AbCheckOptions, defaults: { workers: number; memoryMb: number; warmup: number }): Promise<AbCheckResult> {
  const baseline = loadRunTable(options.baseline, BASELINE_COLUMNS);
  const out = resolve(options.out);
  if (existsSync(out)) throw new Error(`${options.out}: already exists; give a new file for the rerun`);
  const config = baselineConfig(baseline);
  const commit = baselineCommit(config, options.baseline);
  // Everything that would refuse the comparison is said before any build or round.
  refuseDifferentWarmup(config, options);
  if (config.definition)
    throw new Error(`${options.baseline}: was recorded from a benchmark definition (${config.definition}), which bench-check --ab cannot name to run: run bench-check without --ab`);
  const strategies = await baselineConfigurations(config, options);
  const runArgs = baselineRunArgs(config, strategies, options, defaults);
  await options.checkRunArgs?.(runArgs);
  const log = (line: string) => {
    if (!options.quiet) (options.log ?? process.stderr).write(`${line}\n`);
  };
  const root = await nonobenchCheckout(PACKAGE_ROOT);
  const base = await cachedBuild(root, commit, options.cacheDir, log);
  const next: Build = { label: 'this checkout', commit: runEnvironment().git_commit || 'unknown', dir: PACKAGE_ROOT, cli: cliOf(PACKAGE_ROOT) };
  const found = recordingRoot(config.paths, config.pathLines, options.baseline);
  // Every path absolute: rerun from an empty folder, under which none of them lies (see recordingRoot).
  const cwd = found ?? mkdtempSync(join(tmpdir(), 'nonobench-rerun-'));
  let runs;
  try {
    runs = await abRounds(base, next, { runArgs, rounds: options.rounds ?? config.repeat, outDir: out.replace(/\.csv$/i, '') + '-ab', cwd, log });
  } finally {
    if (found === undefined) rmSync(cwd, { recursive: true, force: true });
  }
  // This checkout's rounds are the rerun, under the name the output shows.
  renameSync(runs.newCsv, out);
  const rerun = loadRunTable(out);
  const facts = withAdvisoryTime(compareRuns(baseline, rerun, options.compare));
  const time = compareRuns(loadRunTable(runs.baseCsv), rerun, { ...options.compare, pairedRounds: true });
  const failed = facts.failed || time.failed;
  return {
    config,
    base,
    facts,
    time,
    rerun: out,
    tasksRun: rerun.size,
    exitCode: failed ? 1 : runs.badInput ? 2 : 0,
  };
}
