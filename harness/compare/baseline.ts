import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { pathSeenFrom } from '../../corpus/load.js';
import { InputError } from '../../corpus/errors.js';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { DEFAULT_MAX_SIZE } from '../../corpus/validate.js';
import type { Params } from '../../solvers/api/params.js';
import { defaultRunsPath } from '../io/output-path.js';
import { isModuleSpecifier, loadStrategy, strategyNames } from '../../solvers/strategies/registry.js';
import { compareRuns, SettingsRefusal, type CompareOptions, type CompareResult } from './compare.js';
import { BASELINE_COLUMNS, baselineConfig, type BaselineConfig } from './baseline-config.js';
import { loadRunTable, type RunTable } from './table.js';
import { EXTERNAL_STRATEGY, type ConfigSpec } from '../config/configurations.js';
import type { ExternalSpec } from '../external/spec.js';
import { DEFAULT_MEMORY_MB, defaultWorkers, runCorpus, type RunResult } from '../run/run.js';

export { BASELINE_COLUMNS, baselineConfig, MAX_WORKERS_PER_CORE, MIN_MEMORY_MB, type BaselineConfig, type RecordedConfiguration } from './baseline-config.js';

/**
 * The CSV records strategy names, not how they were loaded: built-in names resolve to themselves;
 * any other name must be one of the given plugin modules, or it is `FILE:LINE` at `lines[i]`, the
 * first row of name i.
 */
export async function resolveStrategySpecs(names: string[], plugins: string[], file: string, lines: readonly number[]): Promise<string[]> {
  const pluginByName = new Map<string, string>();
  for (const path of plugins) {
    if (!isModuleSpecifier(path)) throw new Error(`--plugin expects a module path, got "${path}"`);
    pluginByName.set((await loadStrategy(path)).name, path);
  }
  const builtIn = new Set(strategyNames());
  return names.map((name, i) => {
    const plugin = pluginByName.get(name);
    if (plugin) return plugin;
    if (builtIn.has(name)) return name;
    throw new InputError(file, lines[i]!, `strategy "${name}" is not built in: give its module with --plugin <path>`);
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
  /** Absent when the rerun's CSV took no row at all (a full disk from the start): nothing to compare. */
  comparison?: CompareResult;
  /** As compare's; 1 too when the rerun's CSV could no longer be written (a full disk); 2 when some baseline puzzle could not be loaded and nothing regressed. */
  exitCode: 0 | 1 | 2;
}

export const defaultCheckOut = () => defaultRunsPath('bench-check-');

/**
 * The directory a baseline's puzzle paths were recorded from, so that the rerun records each path
 * as the baseline did: the working directory when its relative paths all exist there and none of
 * its absolute ones lies under it (the rerun would record that one relative), else the package root
 * (where the committed baseline is recorded) on the same terms; undefined when every path is
 * absolute and both hold some (rerun from an empty folder); else an error naming a missing one at
 * its first row, `lines[i]` being the file line of path i.
 */
export function recordingRoot(paths: string[], lines: readonly number[], file: string, cwd = process.cwd()): string | undefined {
  const files = paths.map((p) => p.replace(/#\d+$/, ''));
  const missingFrom = (root: string) => files.find((f) => !existsSync(resolve(root, f)));
  const comesBack = (root: string) => files.every((f) => !isAbsolute(f) || pathSeenFrom(f, root) === f);
  const missing = missingFrom(cwd);
  if (missing === undefined && comesBack(cwd)) return cwd;
  if (missingFrom(PACKAGE_ROOT) === undefined && comesBack(PACKAGE_ROOT)) return PACKAGE_ROOT;
  if (missing === undefined && files.every((f) => isAbsolute(f))) return undefined;
  if (missing === undefined) return cwd;
  // The baseline's row that names it: the file is its bad input.
  const where = cwd === PACKAGE_ROOT ? cwd : `${cwd} nor from ${PACKAGE_ROOT}`;
  throw new InputError(file, lines[files.indexOf(missing)]!, `puzzle ${missing} is not found from ${where}`);
}

/**
 * The configurations a baseline records, ready to run again: plugins found by name among
 * `options.plugins`, parameters as recorded unless `--param` overrides them, and external solvers
 * only with `allowCommands`.
 */
export async function baselineConfigurations(config: BaselineConfig, options: Pick<BenchCheckOptions, 'baseline' | 'plugins' | 'params' | 'allowCommands'>): Promise<ConfigSpec[]> {
  const plugins = options.plugins.map((p) => (isModuleSpecifier(p) && !isAbsolute(p) ? resolve(p) : p));
  const named = config.strategies.filter((name) => name !== EXTERNAL_STRATEGY);
  const firstLine = (name: string) => config.configurations.find((c) => c.strategy === name)?.line ?? 0;
  const specs = await resolveStrategySpecs(named, plugins, options.baseline, named.map(firstLine));
  const specOf = new Map(named.map((name, i) => [name, specs[i]!]));
  // --param overrides what the baseline recorded: recorded values of those names are left out.
  const overridden = new Set(Object.keys(options.params ?? {}));
  return config.configurations.map((c) => {
    // An external solver's params are its recorded settings (command, input, output, …), checked again as it is set up.
    if (c.strategy === EXTERNAL_STRATEGY) {
      // A CSV is data: the programs it names run only when the user says so.
      if (!options.allowCommands)
        throw new Error(`${options.baseline}: configuration ${c.name} runs the program ${JSON.stringify(c.params?.command ?? '')}: give --allow-commands to rerun it`);
      return { name: c.name, strategy: EXTERNAL_STRATEGY, external: (c.params ?? {}) as unknown as ExternalSpec, origin: { file: options.baseline, line: c.line } };
    }
    // A recorded param the strategy does not take (any more) is reported at the configuration's first row.
    const spec: ConfigSpec = { name: c.name, strategy: specOf.get(c.strategy)!, origin: { file: options.baseline, line: c.line } };
    if (c.params) spec.params = Object.fromEntries(Object.entries(c.params).filter(([k]) => !overridden.has(k)));
    return spec;
  });
}

/** A --warmup other than the baseline's would be refused by the comparison: said before the rerun. */
export function refuseDifferentWarmup(config: BaselineConfig, options: Pick<BenchCheckOptions, 'baseline' | 'out' | 'warmup' | 'compare'>): void {
  if (options.warmup !== undefined && config.warmup !== undefined && options.warmup !== config.warmup && !options.compare.allowDifferent)
    throw new SettingsRefusal(options.baseline, options.out, {
      differences: [{ setting: 'warmup', configuration: '', base: String(config.warmup), next: String(options.warmup), refuses: true }],
      unknown: [],
    });
}

/** Reruns the configuration a baseline CSV records and compares the new run against it. */
export async function benchCheck(options: BenchCheckOptions): Promise<BenchCheckResult> {
  const baseline = loadRunTable(options.baseline, BASELINE_COLUMNS);
  // The run appends to its CSV: an old file would mix two runs into the comparison.
  if (existsSync(options.out)) throw new Error(`${options.out}: already exists; give a new file for the rerun`);
  const config = baselineConfig(baseline);
  refuseDifferentWarmup(config, options);
  const strategies = await baselineConfigurations(config, options);
  // Puzzle paths are recorded relative to where the baseline ran, and compared as recorded: rerun from there.
  const found = recordingRoot(config.paths, config.pathLines, options.baseline);
  // Absolute paths under the working directory would be recorded relative to it: an empty folder has none under it.
  const root = found ?? mkdtempSync(join(tmpdir(), 'nonobench-rerun-'));
  const here = process.cwd();
  const out = resolve(options.out);
  process.chdir(root);
  try {
    return await rerunAndCompare(baseline, config, strategies, { ...options, out });
  } finally {
    process.chdir(here);
    if (found === undefined) rmSync(root, { recursive: true, force: true });
  }
}

async function rerunAndCompare(
  baseline: RunTable,
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
    // The rerun is of the same definition's configurations: recorded as such, so the comparison sees them alike.
    ...(config.definition ? { definition: config.definition } : {}),
    ...(options.log ? { log: options.log } : {}),
    // bench-check has no --resume: an interrupted rerun is made again.
    resumable: false,
  });
  // A CSV that could not take even the first row is no run to read: the rerun failed, and says why.
  if (run.stopped && run.tasksRun === 0) return { config, run, exitCode: 1 };
  // No puzzle of the baseline could be loaded (each said why): there is no rerun to compare.
  if (run.tasksRun === 0 && run.loadErrors > 0) return { config, run, exitCode: 2 };
  const comparison = withAdvisoryTime(compareRuns(baseline, loadRunTable(run.out), options.compare));
  // A rerun stopped by its CSV (a full disk) holds only part of the tasks: no pass on them.
  const exitCode = comparison.exitCode === 1 || run.stopped ? 1 : run.loadErrors > 0 ? 2 : 0;
  return { config, run, comparison, exitCode };
}

/**
 * A comparison whose time verdicts are information only: it fails on statuses, missing pairs and
 * (when strict) counters. For a baseline whose times were measured on another day, under another
 * load: only an A/B run (bench-check --ab) gives a time verdict to act on.
 */
export function withAdvisoryTime(result: CompareResult): CompareResult {
  const c = result.counts;
  const failed = c.statusRegressions > 0 || c.onlyInBase > 0 || (result.options.strictCounters && c.counterChanges > 0);
  return { ...result, timeAdvisory: true, failed, exitCode: failed ? 1 : 0 };
}
