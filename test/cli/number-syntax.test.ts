import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { memoryMb, nonNegativeNumber, positiveInt, warmupCount } from '../../harness/cli/options.js';
import { join } from 'node:path';
import { tempDirs } from '../helpers/temp-dirs.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

requireBuiltCli();

const newDir = tempDirs('number-syntax');

/** The message a parser rejects a value with, or its result. */
const outcome = (parse: (v: string) => number, value: string): number | string => {
  try {
    return parse(value);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return (err as Error).message;
  }
};

describe('numbers reach the code as the user wrote them', () => {
  it('--timeout takes decimals with a fraction or an exponent, not hex, binary or octal (0x10 would be 16 s)', () => {
    const timeout = nonNegativeNumber('--timeout');
    expect(['2', '0.5', '.5', '5.', ' 3 ', '0', '1e-3', '1.5e-9', '2E1'].map((v) => outcome(timeout, v))).toEqual([2, 0.5, 0.5, 5, 3, 0, 0.001, 1.5e-9, 20]);
    for (const bad of ['0x10', '0X10', '0b1', '0o7', '+5', '1e', 'e3']) expect(outcome(timeout, bad)).toBe('--timeout must be a number ≥ 0');
  });

  it('a whole number past 2^53 is refused with the digits given, not read as another number', () => {
    expect(outcome(positiveInt('--repeat'), '9007199254740991')).toBe(9007199254740991);
    expect(outcome(positiveInt('--repeat'), '99999999999999999999')).toBe('--repeat 99999999999999999999 is too large (at most 9007199254740991)');
    expect(outcome(memoryMb, '999999999999999999999')).toBe('--memory 999999999999999999999 is too large (at most 9007199254740991)');
    // A bounded option keeps its range message.
    expect(outcome(warmupCount, '99999999999999999999')).toBe('--warmup must be a whole number from 0 to 100 (unmeasured solves before each measured one)');
  });

  it('generate --density 0x1 and compare --min-time 0x10 are usage errors', () => {
    const g = runCli('generate', '--density', '0x1', '--out', join(newDir(), 'never-written'));
    expect([g.code, g.err.split('\n')[0]]).toEqual([2, "error: option '--density <d>' argument '0x1' is invalid. --density must be a number from 0 to 1"]);
    const c = runCli('compare', 'a.csv', 'b.csv', '--min-time', '0x10');
    expect([c.code, c.err.split('\n')[0]]).toEqual([2, "error: option '--min-time <ms>' argument '0x10' is invalid. --min-time must be a number ≥ 0"]);
  });
});
