import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { memoryMb, nonNegativeInt, nonNegativeNumber, positiveInt, warmupCount, wholeNumber } from '../../harness/cli/options.js';
import { MAX_TIMER_MS, limitTimer } from '../../harness/io/timers.js';
import { buildTasks, MAX_TASKS } from '../../harness/run/tasks.js';
import { UsageError } from '../../harness/io/thrown.js';
import { join } from 'node:path';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

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

  it('refuse an empty or blank --timeout, which Number() would read as 0, no limit', () => {
    const timeout = nonNegativeNumber('--timeout');
    expect(['2', '0.5', ' 3 ', '0'].map((v) => outcome(timeout, v))).toEqual([2, 0.5, 3, 0]);
    for (const bad of ['', ' ', '-1', 'NaN', 'Infinity', 'ten']) expect(outcome(timeout, bad)).toBe('--timeout must be a number ≥ 0');
  });

  it('refuse a --memory too small for a worker thread to start, whose tasks would all be lost', () => {
    expect(outcome(memoryMb, '16')).toBe(16);
    expect(outcome(memoryMb, '8')).toBe('--memory must be a whole number ≥ 16 (MiB; a worker thread needs about 8 to start)');
  });
});

describe('options that go with another', () => {
  it('bench-check --rounds without --ab is refused before the rerun, not ignored', () => {
    const r = runCli('bench-check', '--baseline', 'test/fixtures/csv/base.csv', '--rounds', '3', '-q');
    expect([r.code, r.err.split('\n')[0]]).toEqual([2, 'nonobench: --rounds goes with --ab']);
  });
});

describe('limits too large to honour', () => {
  it('more than 100 warm-up solves per task is a slip, refused (1e20 would keep a run busy for ever)', () => {
    expect([outcome(warmupCount, '0'), outcome(warmupCount, '100')]).toEqual([0, 100]);
    for (const bad of ['101', '99999999999999999999']) expect(outcome(warmupCount, bad)).toBe('--warmup must be a whole number from 0 to 100 (unmeasured solves before each measured one)');
  });


  it('a run of more tasks than fit in memory is a usage error before any task is built', () => {
    const puzzles = [{}, {}] as never[];
    const configs = [{}, {}, {}] as never[];
    expect(buildTasks(puzzles, configs, 5)).toHaveLength(30);
    expect(() => buildTasks(puzzles, configs, Math.floor(MAX_TASKS / 6) + 1)).toThrow(UsageError);
    expect(() => buildTasks(puzzles, configs, 1e20)).toThrow('the run would have 600,000,000,000,000,000,000 tasks (2 puzzles × 3 configurations × 100000000000000000000 repetitions), more than the limit of 5,000,000');
  });

  it('a time limit past what a Node timer can wait is no timer at all (one would fire after 1 ms)', async () => {
    let fired = 0;
    expect(limitTimer(MAX_TIMER_MS + 1, () => fired++)).toBeUndefined();
    expect(limitTimer(3e9, () => fired++)).toBeUndefined();
    expect(limitTimer(Infinity, () => fired++)).toBeUndefined();
    const timer = limitTimer(MAX_TIMER_MS, () => fired++);
    expect(timer).toBeDefined();
    clearTimeout(timer);
    limitTimer(1, () => fired++);
    await new Promise((r) => setTimeout(r, 20));
    expect(fired).toBe(1);
  });
});

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
