import { spawn } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cluesOf } from '../../corpus/grid.js';
import { writeNon } from '../../corpus/formats/non.js';
import { EMPTY, FILLED, makePuzzle } from '../../corpus/model.js';
import { checkWorkers, maxWorkers, workerCount, workersProblem } from '../../harness/cli/options.js';
import { UsageError } from '../../harness/io/thrown.js';
import { csvRecord, readCsvInput } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Exit codes mean the same in every command: 0 all went well, 1 a failed or wrong solve or a failed
 * check, 2 bad input or usage, 130 interrupted (Ctrl-C).
 */

requireBuiltCli();
const dir = tempDirs('exit')();

const DANCER = 'corpus/puzzles/webpbn/1.non';
const DANCER_GOAL = '01100011010010101110101001010000110010100101111000';
/** A tournament puzzle whose classification takes many seconds. */
const HARD = 'corpus/puzzles/tournament/taai2011-questions.txt#395';
const BAD = 'test/fixtures/classify/bad-totals.non';
const MISSING = join(dir, 'missing.non');
const CORES = availableParallelism();

const boom = join(dir, 'boom.mjs');
const markAndLoop = join(dir, 'mark-and-loop.mjs');
const goodGrid = join(dir, 'good.txt');
const wrongGrid = join(dir, 'wrong.txt');
const badGrid = join(dir, 'bad.txt');
const unsat = join(dir, 'unsat.txt');
/** Wider than bit sets hold: its lines go through a cache of cell strings, which soon outgrows a small heap. */
const big = join(dir, 'big.non');

beforeAll(() => {
  writeFileSync(boom, "export default { name: 'boom', description: 'throws', solve() { throw new Error('boom'); } };\n");
  // Tells the test it has started (the harness is then waiting on it), then never returns.
  writeFileSync(
    markAndLoop,
    "import { writeFileSync } from 'node:fs';\n" +
      "export default { name: 'mark-and-loop', description: 'marks, then spins', solve() { writeFileSync(process.env.NONOBENCH_TEST_MARK, ''); for (;;) {} } };\n",
  );
  writeFileSync(goodGrid, `${DANCER_GOAL.match(/.{5}/g)!.map((r) => r.replace(/1/g, '#').replace(/0/g, '.')).join('\n')}\n`);
  writeFileSync(wrongGrid, `${Array(10).fill('#####').join('\n')}\n`);
  writeFileSync(badGrid, '#####\n');
  writeFileSync(unsat, 's UNSATISFIABLE\n');
  let state = 1;
  const picture = Uint8Array.from({ length: 300 * 200 }, () => ((state = (Math.imul(state, 1664525) + 1013904223) | 0) >>> 31 === 0 ? FILLED : EMPTY));
  const { rows, columns } = cluesOf(picture, 300, 200);
  writeFileSync(big, writeNon(makePuzzle(rows, columns, {}, picture)));
});

/**
 * Starts `nonobench ARGS…`, waits until `ready()` (the command is busy), sends SIGINT, and returns how it ended.
 */
function interrupt(args: string[], ready: (pid: number) => boolean, env: Record<string, string> = {}): Promise<{ code: number | null; signal: string | null; err: string; ms: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    let sent = 0;
    const started = performance.now();
    const poll = setInterval(() => {
      if (performance.now() - started > 30_000) {
        clearInterval(poll);
        child.kill('SIGKILL');
        fail(new Error(`never ready: ${err}`));
      } else if (ready(child.pid!)) {
        clearInterval(poll);
        sent = performance.now();
        child.kill('SIGINT');
      }
    }, 20);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      done({ code, signal, err, ms: performance.now() - sent });
    });
  });
}

describe('solve', () => {
  it('0: solved', () => expect(runCli('solve', DANCER).code).toBe(0));

  it('1: a strategy that throws is a failed solve, with one line (on a worker and in this thread)', () => {
    for (const timeout of ['60', '0']) {
      const { code, err, out } = runCli('solve', DANCER, '--strategy', boom, '--timeout', timeout);
      expect([code, err, out]).toEqual([1, 'nonobench: strategy boom failed: boom\n', '']);
    }
  });

  it('1: a wrong answer', () => expect(runCli('solve', DANCER, '--strategy', 'test/fixtures/harness/wrong-answer.mjs').code).toBe(1));

  it('1: an answer to clues the strategy rewrote, or solutions with a hole, on a worker and in this thread', () => {
    for (const timeout of ['60', '0']) {
      const rewritten = runCli('solve', DANCER, '--strategy', 'test/fixtures/harness/rewrites-clues.mjs', '--timeout', timeout);
      expect([rewritten.code, rewritten.err.split('\n')[0]]).toEqual([1, expect.stringMatching(/^wrong: /)]);
      const sparse = runCli('solve', DANCER, '--strategy', 'test/fixtures/harness/sparse-solutions.mjs', '--timeout', timeout);
      expect([sparse.code, sparse.err]).toEqual([1, expect.stringMatching(/solutions of the wrong type, size or cell values/)]);
    }
  });

  it('2: bad input or usage', () => {
    expect(runCli('solve', MISSING).code).toBe(2);
    expect(runCli('solve', BAD).code).toBe(2);
    expect(runCli('solve', DANCER, '--no-such-option').code).toBe(2);
    const noModule = runCli('solve', DANCER, '--strategy', join(dir, 'no-such-module.mjs'));
    expect(noModule.code).toBe(2);
    // A module that cannot be loaded is a bad option value: it says so, then where to look.
    expect(noModule.err.trimEnd().split('\n')).toEqual([expect.stringMatching(/^nonobench: cannot load the strategy module .*no-such-module\.mjs: /), '(see nonobench solve --help)']);
    const loud = join(dir, 'loud-throw.mjs');
    writeFileSync(loud, `throw new Error('${'x'.repeat(100_000)}');\n`);
    const thrown = runCli('solve', DANCER, '--strategy', loud);
    expect(thrown.code).toBe(2);
    expect(thrown.err.trimEnd().split('\n').map((line) => line.length <= 600)).toEqual([true, true]); // the module's message cut to 400 characters
  });

  it('130: interrupted while the strategy runs', async () => {
    const mark = join(dir, 'solve.mark');
    const r = await interrupt(['solve', DANCER, '--strategy', markAndLoop], () => existsSync(mark), { NONOBENCH_TEST_MARK: mark });
    expect([r.code, r.signal, r.err]).toEqual([130, null, '\ninterrupted\n']);
    expect(r.ms).toBeLessThan(10_000);
  });
});

describe('classify', () => {
  const out = () => ['--out', join(dir, `classify-${Math.random()}.csv`)];

  it('0: classified', () => expect(runCli('classify', '-q', DANCER, ...out()).code).toBe(0));

  it('1: a puzzle whose classification failed (out of memory), even with a bad file beside it', () => {
    // No time limit: on a loaded machine the limit could come first, and a timeout is no failure.
    const failed = runCli('classify', '-q', '--memory', '16', '--workers', '1', '--timeout', '0', '--max-size', '300', big, ...out());
    expect(failed.out).toMatch(/^unknown\s+1\s/m);
    expect(failed.code).toBe(1);
    expect(runCli('classify', '-q', '--memory', '16', '--workers', '1', '--timeout', '0', '--max-size', '300', big, BAD, ...out()).code).toBe(1);
  });

  it('2: a bad file, a bad option', () => {
    expect(runCli('classify', '-q', BAD, DANCER, ...out()).code).toBe(2);
    expect(runCli('classify', '-q', '--only', 'easy', DANCER, ...out()).code).toBe(2);
  });

  it('130: interrupted while classifying', async () => {
    const svg = join(dir, 'classify-svg');
    const r = await interrupt(['classify', '-q', '--timeout', '60', '--workers', '1', '--svg', svg, HARD, ...out()], () => existsSync(svg));
    expect([r.code, r.signal, r.err]).toEqual([130, null, '\ninterrupted: no CSV written\n']);
    expect(r.ms).toBeLessThan(10_000);
  });
});

describe('check', () => {
  it('0: the grid solves the puzzle', () => expect(runCli('check', DANCER, goodGrid)).toMatchObject({ code: 0, out: 'ok\n' }));
  it('1: it does not', () => expect(runCli('check', DANCER, wrongGrid).code).toBe(1));
  it('2: bad input', () => {
    expect(runCli('check', DANCER, badGrid).code).toBe(2);
    expect(runCli('check', DANCER, MISSING).code).toBe(2);
    expect(runCli('check', MISSING, goodGrid).code).toBe(2);
    expect(runCli('check', DANCER).code).toBe(2);
  });
});

describe('cnf', () => {
  it('0: a CNF written', () => expect(runCli('cnf', DANCER).code).toBe(0));
  it('1: a model that solves nothing', () => {
    const r = runCli('cnf', DANCER, '--decode', unsat);
    expect([r.code, r.err]).toEqual([1, `nonobench: ${unsat}: the solver reports UNSATISFIABLE, but the puzzle's file gives a solution: the solver is wrong, or was given another CNF\n`]);
  });
  it('2: bad input or usage', () => {
    expect(runCli('cnf', BAD).code).toBe(2);
    expect(runCli('cnf', DANCER, '--decode', badGrid).code).toBe(2);
    expect(runCli('cnf', DANCER, '--encoding', 'nope').code).toBe(2);
  });
});

describe('convert', () => {
  it('0: converted', () => expect(runCli('convert', DANCER, join(dir, 'dancer.json')).code).toBe(0));
  it('2: bad input or usage', () => {
    expect(runCli('convert', BAD, '-').code).toBe(2);
    expect(runCli('convert', DANCER, join(dir, 'dancer.png')).code).toBe(2);
  });
});

describe('generate', () => {
  it('0: generated', () => expect(runCli('generate', '--out', join(dir, 'gen')).code).toBe(0));
  it('2: usage', () => {
    expect(runCli('generate', '--out', join(dir, 'gen'), '--width', '0').code).toBe(2);
    expect(runCli('generate').code).toBe(2);
    expect(runCli('generate', '--out', goodGrid).code).toBe(2); // a file in the way
  });
  it('130: interrupted, saying how many files were written (each one whole)', async () => {
    const out = join(dir, 'many');
    const r = await interrupt(['generate', '--count', '1000000', '--out', out], () => existsSync(join(out, '0000001.non')));
    expect([r.code, r.signal]).toEqual([130, null]);
    const written = readdirSync(out).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(1_000_000);
    expect(r.err).toBe(`\ninterrupted: wrote ${written} puzzles to ${out}\n`);
  });
});

describe('compare, report and merge: Ctrl-C ends them at once, even in their synchronous reading', () => {
  /** A run CSV that takes seconds to read: the fixture's rows again and again, each a task of its own. */
  const huge = join(dir, 'huge.csv');
  beforeAll(() => {
    const { records } = readCsvInput('test/fixtures/csv/base.csv');
    // The bytes writeCsv(huge, RUN_COLUMNS, rows) writes, made in a fraction of its time: each record's
    // line is made once, and each copy fills in its task and rep, plain digits that no CSV quoting touches.
    const [TASK, REP] = ['\u0000task\u0000', '\u0000rep\u0000'];
    const lines = records.map((r) => {
      const row: Record<string, unknown> = { ...r, task: TASK, rep: REP };
      return csvRecord(RUN_COLUMNS.map((c) => row[c]));
    });
    expect(lines.every((line) => line.split(TASK).length === 2 && line.split(REP).length === 2)).toBe(true);
    const parts = [csvRecord(RUN_COLUMNS)];
    for (let k = 0; parts.length <= 60_000; k++) for (const line of lines) parts.push(line.replace(TASK, String(parts.length)).replace(REP, String(k + 1)));
    writeFileSync(huge, parts.join(''));
  });
  /** The command has the file open: it is reading it. */
  const reading = (pid: number) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === huge);
    } catch {
      return false;
    }
  };

  for (const args of [['compare', huge, 'test/fixtures/csv/base.csv'], ['report', huge], ['merge', join(dir, 'merged.csv'), huge]]) {
    it(`${args[0]}: killed by SIGINT (130 in a shell), nothing written`, async () => {
      const r = await interrupt(args, reading);
      expect([r.code, r.signal, r.err]).toEqual([null, 'SIGINT', '']);
      // At once: reading the file takes seconds, and before, the command ended only when it was done.
      expect(r.ms).toBeLessThan(1_000);
      expect(existsSync(join(dir, 'merged.csv'))).toBe(false);
    });
  }

  it('merge removes what killed merges into the same file left, and only that', () => {
    const gone = spawnSync('true').pid!; // a process that has ended
    const left = join(dir, `.into.csv.merge-${gone}.tmp`);
    const live = join(dir, `.into.csv.merge-${process.pid}.tmp`);
    const other = join(dir, `.other.csv.merge-${gone}.tmp`);
    for (const f of [left, live, other]) writeFileSync(f, 'partial');
    expect(runCli('merge', join(dir, 'into.csv'), 'test/fixtures/csv/base.csv').code).toBe(0);
    expect([existsSync(left), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
  });
});

describe('strategies', () => {
  it('0: listed', () => expect(runCli('strategies').code).toBe(0));
  it('2: usage', () => expect(runCli('strategies', '--bogus').code).toBe(2));
});

describe('--workers beyond the cores', () => {
  it(`warns with one line above the ${CORES} cores, and refuses more than ${4 * CORES} (exit 2)`, () => {
    const over = runCli('classify', '-q', DANCER, '--workers', String(CORES + 1), '--out', join(dir, 'w.csv'));
    expect(over.code).toBe(0);
    expect(over.err).toBe(`nonobench: --workers ${CORES + 1} is more than the ${CORES} core${CORES === 1 ? '' : 's'}: tasks will share them and times will grow\n`);
    const cores = runCli('classify', '-q', DANCER, '--workers', String(CORES), '--out', join(dir, 'w.csv'));
    expect([cores.code, cores.err]).toEqual([0, '']);
    const bound = 4 * CORES;
    expect(runCli('classify', '-q', DANCER, '--workers', String(bound), '--out', join(dir, 'w.csv')).code).toBe(0);
    const tooMany = runCli('classify', '-q', DANCER, '--workers', String(bound + 1), '--out', join(dir, 'w.csv'));
    expect(tooMany.code).toBe(2);
    expect(tooMany.err).toContain(`--workers ${bound + 1} is above the limit of ${bound} (4 × the ${CORES} core`);
    expect(tooMany.err.trimEnd().split('\n')).toHaveLength(2); // the problem, then the pointer to --help
    expect(tooMany.err).toContain('(see nonobench classify --help)');
  });

  it('checkWorkers: the same for a count from anywhere (a definition file, a baseline)', () => {
    const lines: string[] = [];
    const log = { write: (t: string) => lines.push(t) };
    expect(checkWorkers(300, 100, log)).toBe(300);
    expect(lines).toEqual(['nonobench: --workers 300 is more than the 100 cores: tasks will share them and times will grow\n']);
    expect(checkWorkers(2, 2, log)).toBe(2);
    expect(lines).toHaveLength(1);
    expect(() => checkWorkers(300, 2, log)).toThrow(new UsageError('--workers 300 is above the limit of 8 (4 × the 2 cores)'));
    expect(workersProblem(5, 1)).toEqual({ error: '--workers 5 is above the limit of 4 (4 × the 1 core)' });
    expect(maxWorkers(3)).toBe(12);
    expect(workerCount(1)(String(maxWorkers()))).toBe(maxWorkers());
    expect(() => workerCount(1)(String(maxWorkers() + 1))).toThrow(/above the limit/);
  });
});
