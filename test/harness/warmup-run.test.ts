import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makePuzzle } from '../../corpus/model.js';
import type { Configuration } from '../../harness/config/configurations.js';
import { readCsv } from '../../harness/results/csv.js';
import { taskLimitMs } from '../../harness/run/pool.js';
import { runCorpus, type RunOptions } from '../../harness/run/run.js';
import { buildTasks, inRounds, spreadPuzzles } from '../../harness/run/tasks.js';
import { testRunOptions } from '../helpers/run-options.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const FIX = 'test/fixtures/harness';
const TINY = `${FIX}/tiny.json`; // eight 5×5 puzzles
const COUNT = `${FIX}/count-solves.mjs`;
const tmp = tempDirs('warmup');

const quiet = new Writable({ write: (_c, _e, done) => done() }) as unknown as NodeJS.WriteStream;
const options = (over: Partial<RunOptions>): RunOptions =>
  testRunOptions({ paths: [TINY], strategies: [COUNT], out: join(tmp(), 'run.csv'), log: quiet }, { workers: 1, ...over });
const rows = (out: string) => readCsv(out).records.sort((a, b) => Number(a.task) - Number(b.task));
/** How many solves each task's thread had run by the end of its measured one (count-solves reports it). */
const solvesInThread = (out: string) => rows(out).map((r) => (JSON.parse(r.extra!) as { solvesInThread: number }).solvesInThread);

/** A plugin written for one test: `body` is its solve's code, with `puzzle` and `shouldStop` in scope; it answers `stuck`, knowing nothing. */
function plugin(body: string): string {
  const file = join(tmp(), 'plugin.mjs');
  writeFileSync(
    file,
    `export default { name: 'made', description: 'a test plugin', solve(puzzle, { shouldStop }) { ${body}
      return { status: 'stuck', grid: new Uint8Array(puzzle.width * puzzle.height), solutions: [], metrics: { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} } }; } };`,
  );
  return resolve(file);
}

describe('spreadPuzzles', () => {
  const puzzle = (i: number) => makePuzzle([[i]], Array.from({ length: Math.max(i, 1) }, () => [1]));
  it('picks at most `max` distinct puzzles, spread evenly over the run in task order, the first included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 20 }), (n, configs, repeat, max) => {
        const puzzles = Array.from({ length: n }, (_, i) => puzzle(i + 1));
        const config = (i: number) => ({ name: `c${i}`, spec: `c${i}` }) as Configuration;
        const tasks = inRounds(buildTasks(puzzles, Array.from({ length: configs }, (_, i) => config(i)), repeat));
        const picked = spreadPuzzles(tasks, max);
        expect(picked).toHaveLength(Math.min(n, max));
        expect(new Set(picked).size).toBe(picked.length);
        const at = picked.map((p) => puzzles.indexOf(p));
        expect(at[0]).toBe(0);
        // In order, and no gap between picks (or after the last) wider than an even share.
        for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThan(0);
        for (const gap of [...at.slice(1), n].map((a, i) => a - at[i]!)) expect(gap).toBeLessThanOrEqual(Math.ceil(n / at.length));
      }),
    );
  });
});

describe('run: warm-up', () => {
  it('warms each thread up on the run’s puzzles with every configuration of its threads, then solves each task’s puzzle --warmup times first; --warmup 0 runs cold', async () => {
    const counts = async (warmup: number, strategies = [COUNT]) =>
      solvesInThread((await runCorpus(options({ paths: [`${TINY}#1-4`], warmup, strategies, params: { ms: 0 } }))).out);
    expect(await counts(0)).toEqual([1, 2, 3, 4]);
    // A round: the four puzzles, again until 64 solves; then per task its warm-up solves and the measured one.
    expect(await counts(1)).toEqual([66, 68, 70, 72]);
    expect(await counts(2)).toEqual([131, 134, 137, 140]);
    // Two configurations of one plugin share its threads: the thread warms up with each.
    expect(await counts(1, [`a=${COUNT}`, `b=${COUNT}`])).toEqual([130, 132, 134, 136, 138, 140, 142, 144]);
  });

  it('counts the task’s hard limit from the end of the thread’s warm-up, and leaves the warm-up out of a killed task’s time', async () => {
    // 30 ms a solve; on puzzle #1 it then spins for good unless its deadline has passed: it has in a
    // warm-up solve (10 ms), not in the measured one (50 ms). The thread's warm-up takes its 0.3 s.
    const spins = plugin("const t = performance.now(); while (performance.now() - t < 30); if (puzzle.meta.title === 'tiny 5x5 #1' && !shouldStop()) for (;;) {}");
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [spins], warmup: 1, timeoutS: 0.05 }));
    expect(rows(r.out).map((x) => x.status)).toEqual(['timeout', 'stuck']);
    // Its limit: 1.05 s for its warm-up solve and as much for the measured one.
    const limit = taskLimitMs(50, 1);
    expect(limit).toBe(2100);
    const ms = Number(rows(r.out)[0]!.time_ms);
    expect(ms).toBeGreaterThanOrEqual(limit);
    expect(ms).toBeLessThan(limit + 250);
  });

  it('charges no task with a thread warm-up that hangs on another puzzle: the task runs again, and the threads run cold from then on', async () => {
    // Spins for good on the second solve of its thread when that is puzzle #2: in the first thread's
    // warm-up (#1, #2, …), never in a task (#1's warm-up and measured solves come first).
    const spins = plugin("globalThis.solves = (globalThis.solves ?? 0) + 1; if (globalThis.solves === 2 && puzzle.meta.title === 'tiny 5x5 #2') for (;;) {}");
    const said: string[] = [];
    const log = { write: (text: string) => said.push(text) } as unknown as NodeJS.WriteStream;
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [spins], warmup: 1, timeoutS: 0.05, log }));
    expect(rows(r.out).map((x) => [x.puzzle_path, x.status, x.error])).toEqual([
      [`${TINY}#1`, 'stuck', ''],
      [`${TINY}#2`, 'stuck', ''],
    ]);
    // Said once, so that a user knows these times are cold.
    expect(said.filter((line) => line.includes('thread warm-up')).map((line) => line.trim())).toEqual([
      `nonobench: the thread warm-up of ${spins} failed (a strategy overran its deadline or its memory on one of the run's puzzles): those threads measure cold from here`,
    ]);
  });

  it('says once that the threads run cold, though the warm-ups of two threads fail side by side', async () => {
    const spins = plugin("if (puzzle.meta.title === 'tiny 5x5 #2') for (;;) {}");
    const said: string[] = [];
    const log = { write: (text: string) => said.push(text) } as unknown as NodeJS.WriteStream;
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [spins], warmup: 1, timeoutS: 0.05, workers: 2, log }));
    expect(rows(r.out).map((x) => x.status)).toEqual(['stuck', 'timeout']);
    expect(said.filter((line) => line.includes('thread warm-up'))).toHaveLength(1);
  });

  it('gives every thread warm-up solve a puzzle of its own: a strategy may use the clues as scratch', async () => {
    // Spins (until the warm-up's limit) when handed clues an earlier solve marked.
    const scratch = plugin('if (puzzle.rows.used) for (;;); puzzle.rows.used = true;');
    const said: string[] = [];
    const log = { write: (text: string) => said.push(text) } as unknown as NodeJS.WriteStream;
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [scratch], warmup: 1, log }));
    expect(said.filter((line) => line.includes('thread warm-up'))).toEqual([]);
    expect(rows(r.out).map((x) => x.status)).toEqual(['stuck', 'stuck']);
  });

  it('ignores a thread warm-up solve that throws: the puzzle’s own task reports it', async () => {
    const throwsOn2 = plugin("if (puzzle.meta.title === 'tiny 5x5 #2') throw new Error('no #2');");
    const r = await runCorpus(options({ paths: [`${TINY}#1`, `${TINY}#2`], strategies: [throwsOn2], warmup: 1 }));
    expect(rows(r.out).map((x) => [x.status, x.error])).toEqual([
      ['stuck', ''],
      ['error', 'no #2'],
    ]);
  });
});
