import { realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { InvalidArgumentError, Option } from 'commander';
import { suiteNames, suitePaths } from '../../corpus/suites.js';
import { DEFAULT_MAX_SIZE, type LoadOptions } from '../../corpus/validate.js';
import { isModuleSpecifier, strategyNames } from '../../solvers/strategies/registry.js';
import { UsageError } from '../io/thrown.js';
import { MAX_WARMUP } from '../config/limits.js';
import { clip } from '../../corpus/errors.js';
import { typedParam } from '../../solvers/api/params.js';

// commander argument parsers that reject bad values with a one-line message (commander adds the option and the help hint).

/** A whole number written in decimal digits, from `min` to `max`; `why` ends the message. */
export function wholeNumber(name: string, min: number, max = Infinity, why = '') {
  const range = max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`;
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number ${range}${why}`);
    // Past 2^53 the digits are no longer the number: 99999999999999999999 would be 100000000000000000000.
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} ${value.trim()} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
    return n;
  };
}

export const positiveInt = (name: string) => wholeNumber(name, 1);

/** Most worker threads per core: past it, threads only wait for each other and every time measured is mostly waiting. */
export const MAX_WORKERS_PER_CORE = 4;

/** The largest `--workers` accepted on this machine: MAX_WORKERS_PER_CORE × its cores. */
export const maxWorkers = (cores = availableParallelism()) => MAX_WORKERS_PER_CORE * cores;

const coresText = (cores: number) => `${cores} core${cores === 1 ? '' : 's'}`;

/**
 * What a worker count means on a machine with `cores` cores: an error above maxWorkers (a usage error),
 * a warning above the cores, else nothing. Pure, for the parser and checkWorkers.
 */
export function workersProblem(n: number, cores = availableParallelism()): { error: string } | { warning: string } | undefined {
  const bound = maxWorkers(cores);
  if (n > bound) return { error: `--workers ${n} is above the limit of ${bound} (${MAX_WORKERS_PER_CORE} × the ${coresText(cores)})` };
  if (n > cores) return { warning: `--workers ${n} is more than the ${coresText(cores)}: tasks will share them and times will grow` };
  return undefined;
}

/**
 * `--workers` (`run`, `classify`, `bench-check`): a whole number from `min` up to maxWorkers. A parser
 * must not print: the command calls checkWorkers on the value it ends up with (the command line's, a
 * definition file's or a baseline's), which warns above the cores.
 */
export function workerCount(min: number) {
  const parse = wholeNumber('--workers', min);
  return (value: string): number => {
    const n = parse(value);
    const problem = workersProblem(n);
    if (problem && 'error' in problem) throw new InvalidArgumentError(problem.error);
    return n;
  };
}

/**
 * Checks the worker count a command will use, wherever it came from: above maxWorkers it throws a
 * UsageError (exit 2); above the cores it writes one warning line on stderr. Returns `n`.
 */
export function checkWorkers(n: number, cores = availableParallelism(), log: { write(text: string): unknown } = process.stderr): number {
  const problem = workersProblem(n, cores);
  if (problem && 'error' in problem) throw new UsageError(problem.error);
  if (problem) log.write(`nonobench: ${problem.warning}\n`);
  return n;
}

/** Smallest `--memory` (MiB): below about 8 a worker thread cannot even start, and its tasks would be lost. */
export const MIN_MEMORY_MB = 16;
export const memoryMb = wholeNumber('--memory', MIN_MEMORY_MB, Infinity, ' (MiB; a worker thread needs about 8 to start)');
export const nonNegativeInt = (name: string) => wholeNumber(name, 0);
export const warmupCount = wholeNumber('--warmup', 0, MAX_WARMUP, ' (unmeasured solves before each measured one)');

/**
 * A number written in decimal, with an optional fraction and exponent (`2`, `0.5`, `.5`, `1e-3`): not
 * hex, binary or octal (`0x10`, `0b1`, `0o7`, which Number reads as 16, 1 and 7), nor a sign.
 */
export const DECIMAL_NUMBER = /^\s*(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?\s*$/i;

export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    // Number('') and Number(' ') are 0, which would silently mean "no limit"; Number('0x10') is 16.
    if (!DECIMAL_NUMBER.test(value) || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a number ≥ 0`);
    return n;
  };
}

/**
 * Collects repeated `--param key=value` options; `true`, `false` and numbers written as JavaScript
 * writes them (`300`, `-2`, `0.5`) become booleans and numbers, as a strategy that declares no
 * parameters gets them. Anything else (`1e6`, `0x10`, `1.0`, `007`) stays text for the strategy's
 * own parser, so that it is refused for a whole number here as in `STRATEGY:key=value`.
 */
export function collectParam(
  value: string,
  previous: Record<string, number | boolean | string> = {},
): Record<string, number | boolean | string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`--param expects key=value, got "${value}"`);
  const key = value.slice(0, eq);
  // One key given twice is a slip (the last would silently win), as it is inside one STRATEGY:key=value item.
  if (Object.hasOwn(previous, key)) throw new InvalidArgumentError(`--param ${key} is given twice`);
  return { ...previous, [key]: typedParam(value.slice(eq + 1)) };
}

/**
 * An option that names a file, a folder or a slice (`--out`, `--svg`, `--resume`, `--shard`, …): an
 * empty value is refused. Commands test these options for truth, and `--out ''` would otherwise be
 * no option at all (standard output, the default file, every task).
 */
export function nonEmpty(name: string) {
  return (value: string): string => {
    if (value === '') throw new InvalidArgumentError(`${name} must not be empty`);
    return value;
  };
}

/** A path as the file it names: absolute, through links when it exists. */
function fileKey(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Refuses, before any work, two of a command's files given as one (`classify --out X --html X`,
 * `solve --svg X --replay X`, `bench-check --out` naming the baseline or the rerun): the later write
 * would replace the earlier one, or the input, only once the work is done. Each entry is an option
 * and its value (undefined: not given).
 */
export function distinctFiles(files: readonly (readonly [option: string, path: string | undefined])[]): void {
  const seen = new Map<string, string>();
  for (const [option, path] of files) {
    if (path === undefined || path === '-') continue;
    const key = fileKey(path);
    const other = seen.get(key);
    if (other !== undefined) throw new UsageError(`${option} ${clip(path)} names the same file as ${other}: give each its own file`);
    seen.set(key, option);
  }
}

/** `--max-size`, on every command that loads puzzles: the loader's limit on width and height. */
export const maxSizeOption = (defaultText = String(DEFAULT_MAX_SIZE)) =>
  new Option('--max-size <n>', `largest accepted width or height (default ${defaultText})`).argParser(positiveInt('--max-size'));

/** `--suite`, on every command that runs over puzzles: a named puzzle set from corpus/suites/. */
export const suiteOption = () => new Option('--suite <name>', `a named puzzle set (${suiteNames().join(', ')}; see corpus/suites/), added to the paths`);

/** The paths a command runs over: those given, then the suite's; an unknown suite is a usage error. */
export function pathsWithSuite(paths: string[], suite: string | undefined): string[] {
  if (suite === undefined) return paths;
  try {
    return [...paths, ...suitePaths(suite)];
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** The loader options a command's `--max-size` gives. */
export const loadOptionsOf = (o: { maxSize?: number }): LoadOptions => (o.maxSize !== undefined ? { maxSize: o.maxSize } : {});

/** One strategy name or module path (`solve --strategy`): an unknown built-in name is a usage error. */
export function strategySpec(spec: string): string {
  if (!isModuleSpecifier(spec) && !strategyNames().includes(spec))
    throw new UsageError(`unknown strategy "${clip(spec)}" (known: ${strategyNames().join(', ')}; or give a module path)`);
  return spec;
}
