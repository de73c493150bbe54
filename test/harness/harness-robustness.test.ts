import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { createProgress } from '../../harness/run/progress.js';
import { runCorpus, type RunOptions } from '../../harness/run/run.js';
import { quietLog } from '../helpers/slow-runs.js';
import { testRunOptions } from '../helpers/run-options.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// Plugins and inputs that once broke a run, a verification or a one-line error.
const FIX = 'test/fixtures/harness-robustness';
const CROSS = `${FIX}/cross.non`;
const DIAGONALS = `${FIX}/diagonals.nonpack`;
const CLI = 'dist/harness/cli.js';
const tmp = tempDirs('robustness');

const cli = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

function options(over: Partial<RunOptions>): RunOptions {
  return testRunOptions({ paths: [CROSS], strategies: ['overlap'], out: join(tmp(), 'run.csv'), log: quietLog() }, over);
}

/** status, verified and error of each row, by strategy and puzzle path. */
async function rowsOf(over: Partial<RunOptions>) {
  const r = await runCorpus(options(over));
  const rows = readCsv(r.out).records.map((x) => [x.strategy, x.puzzle_path, x.status, x.verified, x.error]);
  return { exitCode: r.exitCode, rows: rows.sort((a, b) => (a.join() < b.join() ? -1 : 1)) };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npx tsc -p tsconfig.json)`);
});

describe('run: strategies that fail oddly give error rows and the run goes on', () => {
  it('records a thrown null or undefined, and a result the worker cannot send, as error rows', async () => {
    const strategies = ['throw-null', 'throw-undefined', 'no-clone'].map((n) => `${FIX}/${n}.mjs`);
    const { exitCode, rows } = await rowsOf({ strategies: [...strategies, 'overlap'] });
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      ['no-clone', CROSS, 'error', ''],
      ['overlap', CROSS, 'unique', 'true'],
      ['throw-null', CROSS, 'error', ''],
      ['throw-undefined', CROSS, 'error', ''],
    ]);
    expect(rows[0]![4]).toMatch(/^its result cannot be sent from the worker: .*could not be cloned/);
    expect(rows[2]![4]).toBe('threw null');
    expect(rows[3]![4]).toBe('threw undefined');
    expect(exitCode).toBe(1);
  });
});

describe('run: a strategy that turns on the thread it shares gets a row of its own doing, in time', () => {
  it('what it throws reaches its row as one line, however it is made (the task once never settled), and a result too deep to send is an error', async () => {
    const rows: Record<string, string[]> = {};
    // With a limit (a limit a busy machine cannot reach first) and without.
    for (const timeoutS of [20, 0])
      for (const mode of ['cause', 'unreadable', 'dom', 'huge', 'length', 'deep']) {
        const r = await rowsOf({ strategies: [`${FIX}/hostile.mjs`], params: { mode }, timeoutS, workers: 1 });
        expect(r.rows.map((row) => row.slice(0, 3)), mode).toEqual([['hostile', CROSS, 'error']]);
        (rows[mode] ??= []).push(String(r.rows[0]![4]));
      }
    expect(rows).toEqual({
      cause: ['with a cause', 'with a cause'],
      unreadable: Array(2).fill('threw a value that cannot be read (its message or its conversion to text threw)'),
      dom: ['a DOM message', 'a DOM message'],
      huge: Array(2).fill(`${'x," '.repeat(500).slice(0, 1999)}…`),
      length: Array(2).fill(expect.stringMatching(/^Invalid typed array length: -\d+$/)),
      deep: Array(2).fill('its result cannot be sent from the worker: it is nested more than 64 levels deep'),
    });
  });

  it('its own clock does not time it, and what it writes into the shared usage slots does not lift the hard limit', async () => {
    const clock = await runCorpus(options({ paths: [CROSS, DIAGONALS], strategies: [`${FIX}/hostile.mjs`], params: { mode: 'clock' }, workers: 1 }));
    const timed = readCsv(clock.out).records;
    expect(timed.map((row) => [row.status, Number(row.time_ms) >= 0])).toEqual(timed.map(() => [expect.stringMatching(/^(unique|wrong)$/), true]));
    expect(cli('report', clock.out).code).toBe(0);
    const escape = await runCorpus(options({ strategies: [`${FIX}/hostile.mjs`], params: { mode: 'escape' }, timeoutS: 1, workers: 1 }));
    const [row] = readCsv(escape.out).records;
    // Stopped at the hard limit (2 s), not after its 20 s.
    expect([row!.status, Number(row!.time_ms) < 10_000]).toEqual(['timeout', true]);
  });
});

describe('run: results no CSV reader could take give error rows', () => {
  it('refuses extra that is not a JSON object, counters that are not whole numbers ≥ 0, and more solutions than asked', async () => {
    const modes = ['bigint', 'cycle', 'negative', 'fraction', 'nan', 'text', 'string-object', 'date', 'too-many'];
    const errors: string[] = [];
    for (const mode of modes) {
      const { exitCode, rows } = await rowsOf({ strategies: [`${FIX}/bad-metrics.mjs`, 'overlap'], params: { mode } });
      expect(rows.map((r) => r.slice(0, 3))).toEqual([
        ['bad-metrics', CROSS, 'error'],
        ['overlap', CROSS, 'unique'],
      ]);
      expect(exitCode).toBe(1);
      errors.push(String(rows[0]![4]));
    }
    expect(errors).toEqual([
      'strategy returned metrics.extra that cannot be written as JSON (Do not know how to serialize a BigInt)',
      expect.stringMatching(/^strategy returned metrics\.extra that cannot be written as JSON \(Converting circular structure to JSON/),
      'strategy returned metrics.deadEnds = -5, not a whole number ≥ 0',
      'strategy returned metrics.deadEnds = 1.5, not a whole number ≥ 0',
      'strategy returned metrics.deadEnds = NaN, not a whole number ≥ 0',
      'strategy returned metrics.deadEnds = "5", not a whole number ≥ 0',
      'strategy returned metrics.extra that is not an object',
      'strategy returned metrics.extra that is not an object',
      'strategy returned 3 solutions, more than the 2 asked for',
    ]);
  });
});

describe('run: final grids are verified, not only solutions', () => {
  const badGrids = `${FIX}/bad-grids.mjs`;

  it('records a stuck grid whose known cells break the clues, and so the goal, as wrong', async () => {
    const { exitCode, rows } = await rowsOf({ strategies: [badGrids], params: { mode: 'filled' } });
    expect(rows).toEqual([
      ['bad-grids', CROSS, 'wrong', 'false', "the final grid's cell at row 1, column 1 differs from the goal, which satisfies the clues"],
    ]);
    expect(exitCode).toBe(1);
  });

  it('does not judge a partial grid without a goal: on a puzzle with no solution any deduction holds', async () => {
    // Rows 1,1 / 0 / 1 against columns 3 / 0 / 0: no solution, yet `#.#` in row 1 follows from the rows alone.
    const dir = tmp();
    const path = join(dir, 'none.non');
    writeFileSync(path, 'width 3\nheight 3\nrows\n1,1\n0\n1\ncolumns\n3\n0\n0\n');
    const { exitCode, rows } = await rowsOf({ paths: [path], strategies: ['enumeration'], params: { maxPlacements: 1 } });
    expect(rows).toEqual([['enumeration', path, 'too-large', '', '']]);
    expect(exitCode).toBe(0);
  });

  it('records a unique answer whose final grid is not its solution as wrong', async () => {
    const { rows } = await rowsOf({ strategies: [badGrids], params: { mode: 'other-grid' } });
    expect(rows).toEqual([['bad-grids', CROSS, 'wrong', 'false', 'the final grid differs from solution 1']]);
  });

  it('records known cells that the goal refutes as wrong, and the same cells the goal allows as stuck', async () => {
    const { rows } = await rowsOf({ paths: [`${DIAGONALS}#1`, `${DIAGONALS}#2`], strategies: [badGrids], params: { mode: 'off-goal' } });
    expect(rows).toEqual([
      ['bad-grids', `${DIAGONALS}#1`, 'wrong', 'false', "the final grid's cell at row 1, column 1 differs from the goal, which satisfies the clues"],
      ['bad-grids', `${DIAGONALS}#2`, 'stuck', '', ''],
    ]);
  });

  it('finds nothing wrong in the built-in strategies, even when stopped midway', async () => {
    const r = await runCorpus(
      options({ paths: ['corpus/puzzles/webpbn', 'corpus/puzzles/seeds'], strategies: ['overlap', 'enumeration', 'backtrack', 'sat', 'auto'], timeoutS: 0.02 }),
    );
    const statuses = readCsv(r.out).records.map((x) => x.status);
    expect(statuses).toHaveLength(15 * 5);
    expect(statuses.filter((s) => s === 'wrong' || s === 'error')).toEqual([]);
    expect(statuses).toContain('stuck');
  });
});

describe('run --resume', () => {
  it('starts a file that does not exist yet', async () => {
    const out = join(tmp(), 'sub', 'new.csv');
    const r = await runCorpus(options({ resume: out }));
    expect(r.exitCode).toBe(0);
    expect(readCsv(out).columns).toEqual([...RUN_COLUMNS]);
    expect(readCsv(out).records).toHaveLength(1);
  });

  it('refuses a foreign CSV, random bytes and an unclosed quote by file and line, leaving the file as it was', async () => {
    const dir = tmp();
    const cases: [string, string, RegExp][] = [
      ['foreign.csv', 'name,size\na,1\n', /^\S*foreign\.csv:1: cannot resume: not a run CSV \(its header is not the run columns\)$/],
      ['bytes.csv', '\u0001\u00ff\u0000garbage\u0007,,\n', /^\S*bytes\.csv:1: cannot resume: not a text file \(binary data\)$/],
      ['controls.csv', '\u0001\u00ffgarbage\u0007,,\n', /^\S*controls\.csv:1: cannot resume: not a run CSV/],
      // A quote torn in a data row is a killed writer's (it is dropped); one in the header is not.
      ['quote.csv', `"${RUN_COLUMNS.join(',')}\n`, /^\S*quote\.csv:1: cannot resume: not a CSV \(Quote Not Closed/],
    ];
    for (const [name, text, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, text);
      await expect(runCorpus(options({ resume: path }))).rejects.toThrow(message);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
    const r = cli('run', CROSS, '-s', 'overlap', '-q', '--resume', join(dir, 'foreign.csv'));
    expect([r.code, r.err.trim().split('\n').length, r.out]).toEqual([2, 1, '']);
  });
});

describe('merge', () => {
  it('refuses a file that is not a run CSV, or is missing, with one line naming it and exit 2', async () => {
    const dir = tmp();
    const good = join(dir, 'good.csv');
    await runCorpus(options({ out: good }));
    const foreign = join(dir, 'foreign.csv');
    writeFileSync(foreign, 'name,size\na,1\n');
    const out = join(dir, 'merged.csv');
    const cases: [string, RegExp][] = [
      [foreign, /^\S*foreign\.csv:1: not a run CSV \(no task, puzzle_id, puzzle_path, strategy, rep columns\)\n$/],
      [join(dir, 'missing.csv'), /^\S*missing\.csv:0: cannot read the file \(no such file or directory\)\n$/],
    ];
    for (const [bad, message] of cases) {
      const r = cli('merge', out, good, bad);
      expect([r.code, r.err]).toEqual([2, expect.stringMatching(message)]);
      expect(existsSync(out)).toBe(false);
    }
  });
});

describe('one-line errors of check, cnf and solve', () => {
  it('check reads a grid file with a byte-order mark, and puts missing rows at the last line', () => {
    const dir = tmp();
    const rows = ['..#..', '..#..', '#####', '..#..', '..#..'];
    writeFileSync(join(dir, 'bom.txt'), `\uFEFF${rows.join('\n')}\n`);
    expect(cli('check', CROSS, join(dir, 'bom.txt'))).toMatchObject({ code: 0, out: 'ok\n' });
    writeFileSync(join(dir, 'short.txt'), `${rows.slice(0, 3).join('\n')}\n`);
    expect(cli('check', CROSS, join(dir, 'short.txt'))).toMatchObject({ code: 2, err: `${join(dir, 'short.txt')}:3: grid has 3 rows, expected 5\n` });
    writeFileSync(join(dir, 'empty.txt'), '');
    expect(cli('check', CROSS, join(dir, 'empty.txt')).err).toBe(`${join(dir, 'empty.txt')}:0: grid has 0 rows, expected 5\n`);
  });

  it('check and cnf --decode word a missing file as the loader does', () => {
    const missing = join(tmp(), 'nope.txt');
    const expected = { code: 2, err: `${missing}:0: cannot read the file (no such file or directory)\n` };
    expect(cli('check', CROSS, missing)).toMatchObject(expected);
    expect(cli('cnf', '--decode', missing, CROSS)).toMatchObject(expected);
  });

  it('cnf names its auxiliary variables in its header only when there are some', () => {
    const header = (...args: string[]) => cli('cnf', ...args).out.split('\n').find((l) => l.startsWith('c variables'));
    expect(header(`${DIAGONALS}#3`)).toBe('c variables 1..9 are the cells');
    expect(header(CROSS)).toMatch(/^c variables 1\.\.25 are the cells; 26\.\.\d+ are block starts \("block b starts at p or later"\)$/);
    expect(header(CROSS, '--encoding', 'automaton')).toMatch(/^c variables 1\.\.25 are the cells; 26\.\.\d+ are line-automaton states$/);
  });

  it('solve prints a multi-line strategy error as one line', () => {
    const r = cli('solve', CROSS, '--strategy', `${FIX}/throw-multiline.mjs`);
    expect(r.err).toBe('nonobench: strategy throw-multiline failed: line one line two\n');
    expect(r.code).toBe(1); // a failed solve, not bad input
  });
});

describe('--max-size on every command that reads puzzles', () => {
  it('run, solve, classify, cnf and check accept a puzzle wider than 200 with --max-size', () => {
    const dir = tmp();
    const wide = join(dir, 'wide.non');
    writeFileSync(wide, ['width 201', 'height 1', '', 'rows', '201', '', 'columns', ...Array(201).fill('1'), ''].join('\n'));
    const gridFile = join(dir, 'grid.txt');
    writeFileSync(gridFile, `${'#'.repeat(201)}\n`);
    const commands = [
      ['run', wide, '-s', 'overlap', '-q', '--out', join(dir, 'run.csv')],
      ['solve', wide, '--json'],
      ['classify', wide, '-q', '--workers', '0', '--out', join(dir, 'classify.csv')],
      ['cnf', wide],
      ['check', wide, gridFile],
    ];
    for (const args of commands) {
      expect(cli(...args).err).toContain('width 201 is above the limit of 200');
      const r = cli(...args, '--max-size', '300');
      expect([args[0], r.code, r.err]).toEqual([args[0], 0, '']);
    }
  });
});

describe('usage errors and progress', () => {
  it('a usage error prints its line and where to find help, not the whole help, and exits 2', () => {
    expect(cli('run', '--bogus')).toMatchObject({ code: 2, err: "error: unknown option '--bogus'\n(see nonobench run --help)\n" });
    expect(cli('cnf')).toMatchObject({ code: 2, err: "error: missing required argument 'puzzle'\n(see nonobench cnf --help)\n" });
  });

  it('so does a bad value a command finds itself, before it runs anything', () => {
    const known = 'known: enumeration, overlap, backtrack, probe, sat, auto; or give a module path';
    expect(cli('run', CROSS, '--shard', '0/2')).toMatchObject({ code: 2, err: 'nonobench: --shard expects K/N with 1 ≤ K ≤ N, or auto, got "0/2"\n(see nonobench run --help)\n' });
    expect(cli('run', CROSS, '--strategies', 'overlap,bogus')).toMatchObject({ code: 2, err: `nonobench: unknown strategy "bogus" (${known})\n(see nonobench run --help)\n` });
    expect(cli('solve', CROSS, '-s', 'bogus')).toMatchObject({ code: 2, err: `nonobench: unknown strategy "bogus" (${known})\n(see nonobench solve --help)\n` });
    // `all` names a list, which solve's single strategy cannot be.
    expect(cli('solve', CROSS, '-s', 'all')).toMatchObject({ code: 2, err: `nonobench: unknown strategy "all" (${known})\n(see nonobench solve --help)\n` });
    expect(cli('run', CROSS, '--strategies', ',')).toMatchObject({ code: 2, err: 'nonobench: --strategies names no strategy\n(see nonobench run --help)\n' });
  });

  it('prints the final progress line once when it is not a terminal', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trimEnd().split('\n'));
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    const progress = createProgress(3, stream, false, 0); // a line at every tick
    for (let i = 0; i < 3; i++) progress.tick({ timeouts: 0, errors: 0 });
    progress.stop();
    expect(lines.map((l) => l.replace(/ \(.*/, ''))).toEqual(['solving 1/3', 'solving 2/3', 'solving 3/3']);
  });
});
