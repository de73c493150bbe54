import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { memoryMb, nonNegativeInt, positiveInt, wholeNumber } from '../../harness/cli/options.js';

/** The message a parser rejects a value with, or its result. */
const outcome = (parse: (v: string) => number, value: string): number | string => {
  try {
    return parse(value);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidArgumentError);
    return (err as Error).message;
  }
};

describe('whole-number options', () => {
  it('take decimal digits only, within their range', () => {
    const workers = positiveInt('--workers');
    expect(['4', ' 2 ', '007'].map((v) => outcome(workers, v))).toEqual([4, 2, 7]);
    for (const bad of ['0', '-1', '2.0', '1.5', '1e3', '0x10', '', 'two', 'Infinity'])
      expect(outcome(workers, bad)).toBe('--workers must be a whole number ≥ 1');
    expect(outcome(nonNegativeInt('--warmup'), '0')).toBe(0);
    expect(outcome(nonNegativeInt('--warmup'), '-0')).toBe('--warmup must be a whole number ≥ 0');
    const count = wholeNumber('--count', 1, 10, ', say');
    expect([outcome(count, '10'), outcome(count, '11')]).toEqual([10, '--count must be a whole number from 1 to 10, say']);
  });

  it('refuse a --memory too small for a worker thread to start, whose tasks would all be lost', () => {
    expect(outcome(memoryMb, '16')).toBe(16);
    expect(outcome(memoryMb, '8')).toBe('--memory must be a whole number ≥ 16 (MiB; a worker thread needs about 8 to start)');
  });
});
