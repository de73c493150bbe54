import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { DEFAULT_MAX_SIZE } from '../../corpus/validate.js';
import type { Params } from '../../solvers/api/params.js';
import type { RunColumn } from '../results/row.js';
import { defaultRunsPath } from '../io/output-path.js';
import { isModuleSpecifier, loadStrategy, strategyNames } from '../../solvers/strategies/registry.js';
import { compareRuns, loadRunCsv, NEEDED_COLUMNS, type CompareOptions, type CompareResult, type RunCsv } from './compare.js';
import { EXTERNAL_STRATEGY, type ConfigSpec } from '../config/configurations.js';
import type { ExternalSpec } from '../external/spec.js';
import { DEFAULT_MEMORY_MB, defaultWorkers, runCorpus, type RunResult } from '../run/run.js';

/** Columns a baseline needs beyond compare's, to rebuild the run that produced it. */
export const BASELINE_COLUMNS: readonly RunColumn[] = [...NEEDED_COLUMNS, 'rep', 'timeout_s', 'max_solutions'];

/** What a baseline CSV records about the run that made it. */
export interface BaselineConfig {
  /** Every puzzle path, in the order first recorded (`FILE#N` for bundle members). */
  paths: string[];
  /** Strategy names as recorded. */
  strategies: string[];
  repeat: number;
  /** 0 when the baseline ran without a limit. */
  timeoutS: number;
  maxSolutions: number;
  /** Recorded by newer runs (columns workers, warmup, memory_mb, params); undefined when absent. */
  workers?: number;
  warmup?: number;
  memoryMb?: number;
  /** The configurations run, in order: name (column config), strategy name, parameters as recorded (column params). */
  configurations: RecordedConfiguration[];
  /** The largest width or height among the rows (columns width, height); undefined when absent. */
  largestSide?: number;
}

/** A configuration as a baseline records it. */
export interface RecordedConfiguration {
  name: string;
  strategy: string;
  /** Absent when the CSV has no params column or leaves it empty (the defaults then). */
  params?: Params;
}

/** A whole number ≥ min from a one-valued column, or undefined when the CSV lacks the column or leaves it empty. */
function optionalCount(csv: RunCsv, column: RunColumn, min: number): number | undefined {
  if (!csv.columns.includes(column)) return undefined;
  const text = single(csv, column);
  if (text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new Error(`${csv.file}: column ${column} must be a whole number ≥ ${min}`);
  return n;
}

/** The configurations of a run CSV, each with its strategy and recorded parameters (all its rows alike). */
function recordedConfigurations(csv: RunCsv): RecordedConfiguration[] {
  const byName = new Map<string, RecordedConfiguration & { text: string }>();
  for (const r of csv.records) {
    const name = r.config ?? r.strategy ?? '';
    const text = r.params ?? '';
    const before = byName.get(name);
    if (before) {
      if (before.text !== text || before.strategy !== r.strategy)
        throw new Error(`${csv.file}: configuration ${name} has rows with different strategies or params: not one run configuration`);
      continue;
    }
    const config: RecordedConfiguration & { text: string } = { name, strategy: r.strategy ?? '', text };
    if (text !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`${csv.file}: column params is not a JSON object`);
      config.params = parsed as Params;
    }
    byName.set(name, config);
  }
  return [...byName.values()].map(({ text: _text, ...config }) => config);
}

/** The one value a column takes over all rows, or an error naming the file when it takes several. */
function single(csv: RunCsv, column: RunColumn): string {
  const values = [...new Set(csv.records.map((r) => r[column] ?? ''))];
  if (values.length > 1) throw new Error(`${csv.file}: column ${column} takes several values (${values.join(', ')}): not one run configuration`);
  return values[0] ?? '';
}

export function baselineConfig(csv: RunCsv): BaselineConfig {
  if (csv.records.length === 0) throw new Error(`${csv.file}: no rows, nothing to rerun`);
  const unique = (column: RunColumn) => [...new Set(csv.records.map((r) => r[column] ?? ''))];
  const paths = unique('puzzle_path');
  if (paths.includes('')) throw new Error(`${csv.file}: a row has no puzzle_path, so its puzzle cannot be found again`);
  const reps = csv.records.map((r) => Number(r.rep));
  if (reps.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${csv.file}: column rep must hold whole numbers ≥ 1`);
  const timeout = single(csv, 'timeout_s');
  const maxSolutions = Number(single(csv, 'max_solutions'));
  if (!Number.isInteger(maxSolutions) || maxSolutions < 1) throw new Error(`${csv.file}: column max_solutions must be a whole number ≥ 1`);
  const timeoutS = timeout === '' ? 0 : Number(timeout);
  if (!Number.isFinite(timeoutS) || timeoutS < 0) throw new Error(`${csv.file}: column timeout_s must be a number ≥ 0`);
  const configurations = recordedConfigurations(csv);
  const config: BaselineConfig = { paths, strategies: unique('strategy'), configurations, repeat: Math.max(...reps), timeoutS, maxSolutions };
  const workers = optionalCount(csv, 'workers', 1);
  const warmup = optionalCount(csv, 'warmup', 0);
  const memoryMb = optionalCount(csv, 'memory_mb', 1);
  if (workers !== undefined) config.workers = workers;
  if (warmup !== undefined) config.warmup = warmup;
  if (memoryMb !== undefined) config.memoryMb = memoryMb;
  const sides = csv.records.flatMap((r) => [Number(r.width), Number(r.height)]).filter((n) => Number.isInteger(n) && n > 0);
  if (sides.length > 0) config.largestSide = Math.max(...sides);
  return config;
}

/**
 * The CSV records strategy names, not how they were loaded: built-in names resolve to themselves;
 * any other name must be one of the given plugin modules.
 */
export async function resolveStrategySpecs(names: string[], plugins: string[], file: string): Promise<string[]> {
  const pluginByName = new Map<string, string>();
  for (const path of plugins) {
    if (!isModuleSpecifier(path)) throw new Error(`--plugin expects a module path, got "${path}"`);
    pluginByName.set((await loadStrategy(path)).name, path);
  }
  const builtIn = new Set(strategyNames());
  return names.map((name) => {
    const plugin = pluginByName.get(name);
    if (plugin) return plugin;
    if (builtIn.has(name)) return name;
    throw new Error(`${file}: strategy "${name}" is not built in: give its module with --plugin <path>`);
  });
}

export interface BenchCheckOptions {
  baseline: string;
  /** Run CSV to write. */
  out: string;
  plugins: string[];
  /** Run the external solvers' commands the baseline records (refused without it). */
  allowCommands?: boolean;
  /** Override the baseline's recorded parameters for the strategies that declare them. */
  params?: Params;
  /** Each of these three, when not given, is taken from the baseline, else from the run defaults. */
  workers?: number;
  warmup?: number;
  memoryMb?: number;
  /** Largest accepted puzzle width or height; by default the loader's, raised to the baseline's largest puzzle. */
  maxSize?: number;
  quiet: boolean;
  compare: CompareOptions;
  log?: NodeJS.WriteStream;
}

export interface BenchCheckResult {
  config: BaselineConfig;
  run: RunResult;
  comparison: CompareResult;
  /** As compare's; 2 when some baseline puzzle could not be loaded and nothing regressed. */
  exitCode: 0 | 1 | 2;
}

export const defaultCheckOut = () => defaultRunsPath('bench-check-');

/**
 * The directory a baseline's relative puzzle paths were recorded from: the working directory when
 * they all exist there, else the package root (where the committed baseline is recorded), else an
 * error naming a missing one.
 */
export function recordingRoot(paths: string[], file: string, cwd = process.cwd()): string {
  const files = paths.map((p) => p.replace(/#\d+$/, ''));
  const missingFrom = (root: string) => files.find((f) => !existsSync(resolve(root, f)));
  const missing = missingFrom(cwd);
  if (missing === undefined) return cwd;
  if (missingFrom(PACKAGE_ROOT) === undefined) return PACKAGE_ROOT;
  throw new Error(`${file}: puzzle ${missing} is not found from ${cwd} nor from ${PACKAGE_ROOT}`);
}

/** Reruns the configuration a baseline CSV records and compares the new run against it. */
export async function benchCheck(options: BenchCheckOptions): Promise<BenchCheckResult> {
  const baseline = loadRunCsv(options.baseline, BASELINE_COLUMNS);
  // The run appends to its CSV: an old file would mix two runs into the comparison.
  if (existsSync(options.out)) throw new Error(`${options.out}: already exists; give a new file for the rerun`);
  const config = baselineConfig(baseline);
  const plugins = options.plugins.map((p) => (isModuleSpecifier(p) && !isAbsolute(p) ? resolve(p) : p));
  const named = config.strategies.filter((name) => name !== EXTERNAL_STRATEGY);
  const specs = await resolveStrategySpecs(named, plugins, options.baseline);
  const specOf = new Map(named.map((name, i) => [name, specs[i]!]));
  // --param overrides what the baseline recorded: recorded values of those names are left out.
  const overridden = new Set(Object.keys(options.params ?? {}));
  const strategies: ConfigSpec[] = config.configurations.map((c) => {
    // An external solver's params are its recorded settings (command, input, output, …), checked again as it is set up.
    if (c.strategy === EXTERNAL_STRATEGY) {
      // A CSV is data: the programs it names run only when the user says so.
      if (!options.allowCommands)
        throw new Error(`${options.baseline}: configuration ${c.name} runs the program ${JSON.stringify(c.params?.command ?? '')}: give --allow-commands to rerun it`);
      return { name: c.name, strategy: EXTERNAL_STRATEGY, external: (c.params ?? {}) as unknown as ExternalSpec };
    }
    const spec: ConfigSpec = { name: c.name, strategy: specOf.get(c.strategy)! };
    if (c.params) spec.params = Object.fromEntries(Object.entries(c.params).filter(([k]) => !overridden.has(k)));
    return spec;
  });
  // Puzzle paths are recorded relative to where the baseline ran, and compared as recorded: rerun from there.
  const root = recordingRoot(config.paths, options.baseline);
  const here = process.cwd();
  const out = resolve(options.out);
  process.chdir(root);
  try {
    return await rerunAndCompare(baseline, config, strategies, { ...options, out });
  } finally {
    process.chdir(here);
  }
}

async function rerunAndCompare(
  baseline: RunCsv,
  config: BaselineConfig,
  strategies: ConfigSpec[],
  options: BenchCheckOptions,
): Promise<BenchCheckResult> {
  const run = await runCorpus({
    paths: config.paths,
    strategies,
    repeat: config.repeat,
    warmup: options.warmup ?? config.warmup ?? 0,
    timeoutS: config.timeoutS,
    memoryMb: options.memoryMb ?? config.memoryMb ?? DEFAULT_MEMORY_MB,
    workers: options.workers ?? config.workers ?? defaultWorkers(),
    maxSolutions: config.maxSolutions,
    out: options.out,
    quiet: options.quiet,
    maxSize: options.maxSize ?? Math.max(DEFAULT_MAX_SIZE, config.largestSide ?? 0),
    ...(options.params ? { params: options.params } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const comparison = compareRuns(baseline, loadRunCsv(run.out), options.compare);
  const exitCode = comparison.exitCode === 1 ? 1 : run.loadErrors > 0 ? 2 : 0;
  return { config, run, comparison, exitCode };
}
