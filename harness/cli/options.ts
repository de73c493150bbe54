import { InvalidArgumentError, Option } from 'commander';
import { suiteNames, suitePaths } from '../../corpus/suites.js';
import { DEFAULT_MAX_SIZE, type LoadOptions } from '../../corpus/validate.js';
import { isModuleSpecifier, strategyNames } from '../../solvers/strategies/registry.js';
import { UsageError } from '../io/thrown.js';

// commander argument parsers that reject bad values with a one-line message (commander adds the option and the help hint).

/** A whole number written in decimal digits, from `min` to `max`; `why` ends the message. */
export function wholeNumber(name: string, min: number, max = Infinity, why = '') {
  const range = max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`;
  return (value: string): number => {
    const n = Number(value);
    if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`${name} must be a whole number ${range}${why}`);
    return n;
  };
}

export const positiveInt = (name: string) => wholeNumber(name, 1);

/** Smallest `--memory` (MiB): below about 8 a worker thread cannot even start, and its tasks would be lost. */
export const MIN_MEMORY_MB = 16;
export const memoryMb = wholeNumber('--memory', MIN_MEMORY_MB, Infinity, ' (MiB; a worker thread needs about 8 to start)');
export const nonNegativeInt = (name: string) => wholeNumber(name, 0);

export function nonNegativeNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a number ≥ 0`);
    return n;
  };
}

/** Collects repeated `--param key=value` options; values become numbers or booleans where they read as such. */
export function collectParam(
  value: string,
  previous: Record<string, number | boolean | string> = {},
): Record<string, number | boolean | string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`--param expects key=value, got "${value}"`);
  const key = value.slice(0, eq);
  const raw = value.slice(eq + 1);
  const parsed = raw === 'true' ? true : raw === 'false' ? false : raw !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
  return { ...previous, [key]: parsed };
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
    throw new UsageError(`unknown strategy "${spec}" (known: ${strategyNames().join(', ')}; or give a module path)`);
  return spec;
}
