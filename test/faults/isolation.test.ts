import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePuzzle, FILLED, EMPTY } from '../../corpus/model.js';
import { memoryCulprit } from '../../harness/run/pool.js';
import { checkAnswer } from '../../harness/results/verify.js';
import { parseCsv } from '../../harness/results/csv.js';
import { emptyMetrics } from '../../solvers/api/types.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// Every row is the task's own: memory is charged to the task that holds it (the bystanders are listed
// first, so that they start first and would be the oldest task in flight), a plugin cannot change
// what other strategies run in, and an answer that does not answer the question asked is wrong.

const dir = tempDirs('isolation');
requireBuiltCli();

const TINY = resolve('test/fixtures/harness/tiny.json');
const FAULTS = resolve('test/fixtures/faults');
const SLOW = resolve('test/fixtures/harness/slow-goal.mjs');

function run(...args: string[]) {
  const out = join(dir(), 'run.csv');
  const r = runCli('run', ...args, '--out', out, '--quiet');
  const rows = parseCsv(readFileSync(out, 'utf8')).records;
  const statuses = (strategy: string) => rows.filter((row) => row.strategy === strategy).map((row) => row.status);
  return { ...r, rows, statuses };
}

describe('memory is charged to the task that holds it', () => {
  it('a hog that polls is stopped by its own thread; the bystanders beside and after it are not', () => {
    const r = run(`${TINY}#1-4`, '--strategies', `${SLOW},${FAULTS}/hog-polling.mjs`, '--param', 'waitMs=300', '--param', 'sleep=1', '--memory', '64', '--workers', '2');
    expect(r.statuses('hog-polling')).toEqual(['memory', 'memory', 'memory', 'memory']);
    expect(r.rows.find((row) => row.strategy === 'hog-polling')!.error).toMatch(/over its memory limit: the task held \d+ MiB in its thread, more than --memory 64/);
    for (const status of r.statuses('slow-goal')) expect(['unique', 'multiple']).toContain(status);
  });

  it('a hog that never polls is stopped by the watchdog, not the polling task beside it or the one after it', () => {
    const r = run(`${TINY}#1-3`, '--strategies', `${SLOW},${FAULTS}/hog-silent.mjs`, '--param', 'waitMs=1500', '--param', 'sleep=1', '--memory', '64', '--workers', '2', '--timeout', '20');
    expect(r.statuses('hog-silent')).toEqual(['memory', 'memory', 'memory']);
    expect(r.rows.find((row) => row.strategy === 'hog-silent')!.error).toMatch(/stopped by the memory watchdog/);
    for (const status of r.statuses('slow-goal')) expect(['unique', 'multiple']).toContain(status);
  }, 60_000);

  it('the culprit is the task holding the most, else the one that went silent, else no one', () => {
    const task = (mib: number, start: number, reportedAt: number) => {
      const usage = new Int32Array(2);
      usage[0] = mib;
      return { start, reportedAt, usage };
    };
    const bystander = task(10, 0, 990);
    const hog = task(900, 100, 995);
    expect(memoryCulprit([bystander, hog], 32, 1000)).toBe(hog);
    const silent = task(0, 500, 500);
    expect(memoryCulprit([bystander, silent], 32, 1000)).toBe(silent);
    expect(memoryCulprit([bystander, task(5, 900, 900)], 32, 1000)).toBeUndefined(); // just after a hog was stopped
  });
});

describe('a plugin cannot change the environment of other strategies', () => {
  it('built-in strategies running after a plugin that replaces globals still answer right', () => {
    const r = run(TINY, '--strategies', `${FAULTS}/global-breaker.mjs,backtrack,sat`, '--workers', '1');
    expect(r.statuses('backtrack')).toHaveLength(8);
    for (const strategy of ['backtrack', 'sat']) for (const row of r.rows.filter((x) => x.strategy === strategy)) expect([row.status, row.verified]).toEqual([row.status === 'multiple' ? 'multiple' : 'unique', 'true']);
  });
});

describe('an error is charged to the task whose work threw it', () => {
  it("a plugin's timer that throws after its task returned fails neither that row nor the next task's; one that throws while its task runs fails that task", () => {
    const r = run(`${TINY}#1`, resolve('corpus/puzzles/webpbn/16.non'), '--strategies', `${FAULTS}/throws-late.mjs,${FAULTS}/throws-in-timer.mjs`, '--workers', '1', '--timeout', '2', '--warmup', '0');
    const rows = (strategy: string) => r.rows.filter((row) => row.config === strategy).map((row) => [row.status, row.error]);
    expect(rows('throws-late')).toEqual([
      ['stuck', ''],
      ['stuck', ''],
    ]);
    expect(r.err).toContain('nonobench: a strategy threw after its task had returned (its row stands as recorded): thrown after the task returned');
    expect(rows('throws-in-timer')).toEqual([
      ['error', 'thrown from a timer of this task'],
      ['error', 'thrown from a timer of this task'],
    ]);
  });
});

describe("the thread warm-up's work is no task's", () => {
  const warm = (...args: string[]) => run(...args, '--strategies', `${FAULTS}/throws-late.mjs`, '--workers', '1', '--timeout', '3', '--warmup', '1');
  const WARMUP_NOTE = "nonobench: work a warm-up solve left behind threw (no task's row is affected): thrown after the task returned";

  it('a timer a warm-up solve left, firing while the task that started the warm-up runs, fails no task', () => {
    // Warm-up solves of 150 ms on 16.non fill the 300 ms round; the timers left on tiny #1 fire 400 ms later, in 16.non's own solves.
    const r = warm(resolve('corpus/puzzles/webpbn/16.non'), `${TINY}#1`, '--param', 'timerMs=400', '--param', 'waitMs=150');
    expect(r.rows.map((row) => [row.status, row.error])).toEqual([
      ['stuck', ''],
      ['stuck', ''],
    ]);
    expect(r.err).toContain(WARMUP_NOTE);
  });

  it("a module's own work as it loads is not the warm-up's: it fails the task that loaded it, with or without a warm-up", () => {
    for (const warmup of ['0', '1']) {
      const r = run(`${TINY}#1`, '--strategies', `${FAULTS}/throws-on-load.mjs`, '--workers', '1', '--timeout', '3', '--warmup', warmup);
      expect(r.rows.map((row) => [row.status, row.error]), `--warmup ${warmup}`).toEqual([['error', 'thrown by a timer the module left as it loaded']]);
      expect(r.err).not.toContain('warm-up solve left behind');
      expect(r.err).not.toContain('measure cold'); // nor a failed warm-up: the threads stay warm
    }
  });

  it('one firing during the warm-up neither fails the task nor turns the threads cold', () => {
    const r = warm(`${TINY}#1`, resolve('corpus/puzzles/webpbn/16.non'));
    expect(r.rows.map((row) => [row.status, row.error])).toEqual([
      ['stuck', ''],
      ['stuck', ''],
    ]);
    expect(r.err).toContain(WARMUP_NOTE);
    expect(r.err).not.toContain('measure cold');
  });
});

describe('an answer must answer the question asked', () => {
  it('`solved` is wrong when uniqueness was asked, right when it was not', () => {
    const goal = Uint8Array.of(FILLED, EMPTY);
    const puzzle = makePuzzle([[1]], [[1], []], {}, goal);
    const result = { status: 'solved' as const, grid: goal.slice(), solutions: [goal.slice()], metrics: emptyMetrics() };
    expect(checkAnswer(puzzle, result, 1)).toBeNull();
    expect(checkAnswer(puzzle, result, 2)).toMatch(/status solved when uniqueness was asked/);
  });
});
