import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_SIZE, type LoadOptions } from '../../corpus/validate.js';

/** commander argument parsers that reject bad values with a one-line message. */
export function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
    return n;
  };
}

export function nonNegativeInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a whole number ≥ 0`);
    return n;
  };
}

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
export const maxSizeOption = () =>
  new Option('--max-size <n>', `largest accepted width or height (default ${DEFAULT_MAX_SIZE})`).argParser(positiveInt('--max-size'));

/** The loader options a command's `--max-size` gives. */
export const loadOptionsOf = (o: { maxSize?: number }): LoadOptions => (o.maxSize !== undefined ? { maxSize: o.maxSize } : {});
