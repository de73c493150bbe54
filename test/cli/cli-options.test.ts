import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { memoryMb, nonNegativeInt, nonNegativeNumber, positiveInt, warmupCount, wholeNumber } from '../../harness/cli/options.js';
import { MAX_TIMER_MS, limitTimer } from '../../harness/io/timers.js';
import { buildTasks, MAX_TASKS } from '../../harness/run/tasks.js';
import { UsageError } from '../../harness/io/thrown.js';

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
