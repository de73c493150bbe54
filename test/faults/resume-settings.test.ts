import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv, writeCsv } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { programChange } from '../../harness/run/resume.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// --resume appends only to rows run with the same settings: a file mixing time limits or solution
// caps measures two things, and with another --repeat the task numbers name other tasks, so tasks
// already recorded would run again under new numbers.

const dir = tempDirs('resume-settings');
requireBuiltCli();

const TINY = resolve('test/fixtures/harness/tiny.json');

/** A run of TINY with `args`, cut after its first `keep` rows as if it had been killed; returns the file and its text. */
function interrupted(keep: number, ...args: string[]): { file: string; text: string } {
  const file = join(dir(), 'run.csv');
  const r = runCli('run', TINY, '--out', file, '--quiet', '--workers', '1', ...args);
  expect(r.code).toBe(0);
  const text = `${readFileSync(file, 'utf8').split('\n').slice(0, keep + 1).join('\n')}\n`;
  writeFileSync(file, text);
  return { file, text };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('--resume refuses rows run with other settings, leaving the file as it was', () => {
  it('another --timeout or --max-solutions', () => {
    const { file, text } = interrupted(3, '-s', 'backtrack', '--timeout', '2', '--max-solutions', '2');
    const r = runCli('run', TINY, '-s', 'backtrack', '--timeout', '5', '--max-solutions', '1', '--resume', file, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(new RegExp(`^${escaped(file)}:2: cannot resume: its rows ran with --timeout 2, and this run has --timeout 5 \\([^\\n]*\\)\\n$`));
    const cap = runCli('run', TINY, '-s', 'backtrack', '--timeout', '2', '--max-solutions', '1', '--resume', file, '--quiet');
    expect([cap.code, cap.err]).toEqual([2, expect.stringContaining(`${file}:2: cannot resume: its rows ran with --max-solutions 2, and this run has --max-solutions 1`)]);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('another --repeat, whose task numbers name other tasks', () => {
    const { file, text } = interrupted(5, '-s', 'backtrack,overlap', '--repeat', '3', '--timeout', '2');
    const r = runCli('run', TINY, '-s', 'backtrack,overlap', '--repeat', '5', '--timeout', '2', '--resume', file, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${escaped(file)}:\\d+: cannot resume: its task \\d+ is puzzle .*: its puzzles, configurations or --repeat differ`))]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // With the settings it was run with, it completes: every task once.
    const again = runCli('run', TINY, '-s', 'backtrack,overlap', '--repeat', '3', '--timeout', '2', '--resume', file, '--quiet');
    expect([again.code, again.err]).toEqual([0, '']);
    const keys = parseCsv(readFileSync(file, 'utf8')).records.map((row) => `${row.task}|${row.puzzle_id}|${row.config}|${row.rep}`);
    expect(keys).toHaveLength(8 * 2 * 3);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('takes task and rep numbers as numbers, however written (007 is task 7), and a time limit of none written 0 or empty as one', () => {
    const { file } = interrupted(6, '-s', 'backtrack,overlap', '--repeat', '2', '--timeout', '0');
    const { columns, records } = parseCsv(readFileSync(file, 'utf8'));
    expect(records.every((row) => row.timeout_s === '')).toBe(true);
    writeCsv(file, columns, records.map((row, i) => ({ ...row, task: `00${row.task}`, rep: `0${row.rep}`, timeout_s: i % 2 === 0 ? '0' : '' })));
    const r = runCli('run', TINY, '-s', 'backtrack,overlap', '--repeat', '2', '--timeout', '0', '--resume', file, '--quiet');
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out).toContain('(6 already recorded, skipped)');
    const keys = parseCsv(readFileSync(file, 'utf8')).records.map((row) => `${Number(row.task)}|${row.puzzle_id}|${row.config}|${Number(row.rep)}`);
    expect(keys).toHaveLength(8 * 2 * 2);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("takes a plugin's undeclared param recorded as text (\"5\", as older versions wrote it) for the number given now, and refuses another value", () => {
    const plugin = resolve('test/fixtures/harness/always-solved.mjs');
    const item = `${plugin}:tries=5`;
    const { file } = interrupted(3, '-s', item, '--max-solutions', '1', '--timeout', '2');
    const { columns, records } = parseCsv(readFileSync(file, 'utf8'));
    expect(JSON.parse(records[0]!.params!)).toEqual({ tries: 5 });
    writeCsv(file, columns, records.map((row) => ({ ...row, params: '{"tries":"5"}' })));
    const text = readFileSync(file, 'utf8');
    const other = runCli('run', TINY, '-s', `${plugin}:tries=6`, '--max-solutions', '1', '--timeout', '2', '--resume', file, '--quiet');
    expect(other.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const same = runCli('run', TINY, '-s', item, '--max-solutions', '1', '--timeout', '2', '--resume', file, '--quiet');
    expect([same.code, same.err]).toEqual([0, '']);
    expect(parseCsv(readFileSync(file, 'utf8')).records).toHaveLength(8);
  });

  it('rows that no reader takes (an unknown status, a time that is no plain decimal), as compare and report refuse them', () => {
    // One run's first rows, each spoilt in one value in a copy of its own.
    const recorded = interrupted(3, '-s', 'backtrack', '--timeout', '2');
    for (const [column, value, message] of [
      ['status', 'bogus', 'column status: unknown status "bogus"'],
      ['time_ms', '1e3', 'column time_ms: "1e3" is not a plain decimal'],
      ['dead_ends', '-1', 'column dead_ends: "-1" is below 0'],
    ] as const) {
      const file = join(dir(), 'run.csv');
      writeFileSync(file, recorded.text);
      const rows = parseCsv(readFileSync(file, 'utf8')).records;
      rows[1]![column] = value;
      writeCsv(file, RUN_COLUMNS, rows);
      const text = readFileSync(file, 'utf8');
      const r = runCli('run', TINY, '-s', 'backtrack', '--timeout', '2', '--resume', file, '--quiet');
      expect([r.code, r.err]).toEqual([2, `${file}:3: cannot resume: ${message}\n`]);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(runCli('report', file, '--out', join(dir(), 'r.html')).err).toBe(`${file}:3: ${message}\n`);
    }
  });

  it('the same puzzle in two files, given in another order: its rows would name the wrong file', () => {
    const d = dir();
    const [a, b] = ['A.non', 'B.non'].map((name) => join(d, name)) as [string, string];
    writeFileSync(a, readFileSync('corpus/puzzles/webpbn/1.non'));
    writeFileSync(b, readFileSync('corpus/puzzles/webpbn/1.non'));
    const file = join(d, 'run.csv');
    expect(runCli('run', a, b, '-s', 'overlap', '--out', file, '--quiet').code).toBe(0);
    const [header, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
    const text = `${header}\n${rows.find((row) => row.includes(`,${b},`))}\n`;
    writeFileSync(file, text); // task 1 (B.non) recorded, task 0 (A.non) not
    const swapped = runCli('run', b, a, '-s', 'overlap', '--resume', file, '--quiet');
    expect([swapped.code, swapped.err]).toEqual([2, `${file}:2: cannot resume: its task 1 is ${b}, where this run's is ${a}, which holds the same puzzle: resume with the paths in the order they were run, from the folder the file was begun in\n`]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(runCli('run', a, b, '-s', 'overlap', '--resume', file, '--quiet').code).toBe(0);
    expect(parseCsv(readFileSync(file, 'utf8')).records.map((row) => [row.task, row.puzzle_path])).toEqual([
      ['1', b],
      ['0', a],
    ]);
    // Relative paths, one the end of the other (a.non and sub/a.non): the same command resumes, the swapped one is refused.
    mkdirSync(join(d, 'sub'));
    writeFileSync(join(d, 'sub', 'a.non'), readFileSync(a));
    const cwd = { cwd: d };
    const full = join(d, 'full.csv');
    expect(spawnSync('node', [resolve(CLI), 'run', 'A.non', 'sub/a.non', '-s', 'overlap', '--workers', '1', '--out', full, '-q'], cwd).status).toBe(0);
    const [head, first] = readFileSync(full, 'utf8').split('\n');
    const part = `${head}\n${first}\n`; // task 0, A.non
    writeFileSync(file, part);
    const wrong = spawnSync('node', [resolve(CLI), 'run', 'sub/a.non', 'A.non', '-s', 'overlap', '--workers', '1', '--resume', file, '-q'], { ...cwd, encoding: 'utf8' });
    expect([wrong.status, wrong.stderr]).toEqual([2, expect.stringContaining(`${file}:2: cannot resume: its task 0 is A.non, where this run's is sub/a.non, which holds the same puzzle`)]);
    expect(readFileSync(file, 'utf8')).toBe(part);
    expect(spawnSync('node', [resolve(CLI), 'run', 'A.non', 'sub/a.non', '-s', 'overlap', '--workers', '1', '--resume', file, '-q'], cwd).status).toBe(0);
    expect(parseCsv(readFileSync(file, 'utf8')).records.map((row) => [row.task, row.puzzle_path])).toEqual([
      ['0', 'A.non'],
      ['1', 'sub/a.non'],
    ]);
  });

  it('another configuration list, or other params for a configuration', () => {
    const { file, text } = interrupted(2, '-s', 'backtrack', '--timeout', '2', '--param', 'probing=false');
    const params = runCli('run', TINY, '-s', 'backtrack', '--timeout', '2', '--resume', file, '--quiet');
    expect([params.code, params.err]).toEqual([2, expect.stringContaining(`${file}:2: cannot resume: configuration backtrack ran with params`)]);
    const configs = runCli('run', TINY, '-s', 'overlap', '--timeout', '2', '--resume', file, '--quiet');
    expect([configs.code, configs.err]).toEqual([2, expect.stringContaining(`${file}:2: cannot resume: its configuration backtrack is not among this run's configurations (overlap)`)]);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('--resume from another working directory', () => {
  it('writes each puzzle path as the rows it resumes wrote it, so every row names its puzzle one way', () => {
    const { file } = interrupted(3, '-s', 'backtrack,overlap', '--timeout', '2');
    const before = parseCsv(readFileSync(file, 'utf8')).records;
    // The same file, seen from test/ rather than from the package root.
    const r = spawnSync(process.execPath, [resolve(CLI), 'run', 'fixtures/harness/tiny.json', '-s', 'backtrack,overlap', '--timeout', '2', '--resume', file, '--quiet', '--workers', '1'], {
      cwd: resolve('test'),
      encoding: 'utf8',
    });
    expect([r.status, r.stderr]).toEqual([0, '']);
    const rows = parseCsv(readFileSync(file, 'utf8')).records;
    expect(rows).toHaveLength(8 * 2);
    for (const row of rows) expect(row.puzzle_path).toMatch(/^test\/fixtures\/harness\/tiny\.json#\d$/);
    for (const row of before) expect(rows.filter((other) => other.puzzle_id === row.puzzle_id).map((other) => other.puzzle_path)).toEqual([row.puzzle_path, row.puzzle_path]);
  });
});

describe('--resume of an external solver', () => {
  /** A folder holding the grid fixture solver, run by a script named `program`, and a definition naming it (with `extra` in its entry). */
  function checkout(program: string, extra = '', input = 'non', edit = ''): string {
    const d = dir();
    writeFileSync(join(d, program), `#!/bin/sh\n${edit}exec ${JSON.stringify(process.execPath)} ${JSON.stringify(resolve('test/fixtures/external/grid-solver.mjs'))} "$@"\n`, { mode: 0o755 });
    writeFileSync(join(d, 'bench.yaml'), `puzzles: ["${TINY}#1-4"]\nconfigurations:\n  - { name: ext, command: "./${program} {puzzle}", input: ${input}, output: grid${extra} }\ntimeout: 5\n`);
    return join(d, 'bench.yaml');
  }

  it('goes on from another checkout of the same program, and refuses another program, input or environment under the name, or the program changed', () => {
    const file = join(dir(), 'run.csv');
    expect(runCli('run', '--config', checkout('solver.sh'), '--out', file, '--quiet', '--workers', '1').code).toBe(0);
    const text = `${readFileSync(file, 'utf8').split('\n').slice(0, 3).join('\n')}\n`;
    writeFileSync(file, text);
    for (const [definition, why] of [
      [checkout('other.sh'), 'other.sh'],
      [checkout('solver.sh', ', env: { MODE: slow }'), 'MODE'],
      [checkout('solver.sh', '', 'json'), 'json'],
    ] as const) {
      const r = runCli('run', '--config', definition, '--resume', file, '--quiet');
      expect([r.code, r.err]).toEqual([2, expect.stringMatching(new RegExp(`^${escaped(file)}:2: cannot resume: configuration ext ran with params .*solver\\.sh.*, and this run gives it .*${why}`))]);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    // A program of the same name whose contents changed would measure another program under the name.
    const edited = runCli('run', '--config', checkout('solver.sh', '', 'non', '# faster now\n'), '--resume', file, '--quiet');
    expect([edited.code, edited.err]).toEqual([2, expect.stringMatching(new RegExp(`^${escaped(file)}:2: cannot resume: configuration ext has changed since its rows ran: solver\\.sh \\(then [0-9a-f]{12}, now [0-9a-f]{12}\\) \\(`))]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    // The same program from another folder: its absolute path differs, its file name does not.
    const again = runCli('run', '--config', checkout('solver.sh'), '--resume', file, '--quiet');
    expect([again.code, again.err]).toEqual([0, '']);
    expect(parseCsv(readFileSync(file, 'utf8')).records.map((row) => row.status)).not.toContain('error');
  });
});

describe('--resume of a plugin', () => {
  /** A plugin module in a folder of its own: `first-solution.mjs`'s answers, under the name `mine`, its file ending in `edit`. */
  function plugin(edit = ''): string {
    const file = join(dir(), 'mine.mjs');
    const answers = JSON.stringify(resolve('test/fixtures/harness/first-solution.mjs'));
    writeFileSync(file, `import { answer } from ${answers};\nexport default { name: 'mine', solve: (puzzle, o) => ({ ...answer(puzzle, o.maxSolutions), metrics: { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} } }) };\n${edit}`);
    return file;
  }

  it('goes on with the same module from elsewhere, and refuses one edited since, or a built-in in its place and the other way round', () => {
    const { file, text } = interrupted(2, '-s', `p=${plugin()}`);
    const edited = runCli('run', TINY, '-s', `p=${plugin('// faster now\n')}`, '--resume', file, '--quiet');
    expect([edited.code, edited.err]).toEqual([2, expect.stringMatching(new RegExp(`^${escaped(file)}:2: cannot resume: configuration p has changed since its rows ran: mine\\.mjs \\(then [0-9a-f]{12}, now [0-9a-f]{12}\\) \\(`))]);
    const builtIn = runCli('run', TINY, '-s', 'p=backtrack', '--resume', file, '--quiet');
    expect([builtIn.code, builtIn.err]).toEqual([2, expect.stringContaining(`${file}:2: cannot resume: configuration p ran the module of strategy mine, and this run gives it the built-in strategy backtrack (`)]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const again = runCli('run', TINY, '-s', `p=${plugin()}`, '--resume', file, '--quiet', '--workers', '1');
    expect([again.code, again.err]).toEqual([0, '']);

    const rows = interrupted(2, '-s', 'p=backtrack');
    const swapped = runCli('run', TINY, '-s', `p=${plugin()}`, '--resume', rows.file, '--quiet');
    expect([swapped.code, swapped.err]).toEqual([2, expect.stringContaining(`${rows.file}:2: cannot resume: configuration p ran the built-in strategy backtrack, and this run gives it the module of strategy mine (`)]);
    expect(readFileSync(rows.file, 'utf8')).toBe(rows.text);
  });
});

describe('what --resume takes for another program under a configuration', () => {
  const plugin = (strategy: string, path: string, hash: string) => ({ strategy, file: `${path}@${hash}` });
  it('is what ran, not what it was called: a plugin named after its file (its import outlasted the limit) is the same module', () => {
    expect(programChange(plugin('mine.mjs', '/a b/x@y/mine.mjs', '0123456789ab'), plugin('mine', '/elsewhere/mine.mjs', '0123456789ab'))).toBeUndefined();
    expect(programChange(plugin('mine', '/a/mine.mjs', '0123456789ab'), plugin('mine', '/a/mine.mjs', 'ba9876543210'))).toBe('has changed since its rows ran: mine.mjs (then 0123456789ab, now ba9876543210)');
    expect(programChange({ strategy: 'overlap', file: '' }, { strategy: 'backtrack', file: '' })).toBe('ran the built-in strategy overlap, and this run gives it the built-in strategy backtrack');
    expect(programChange({ strategy: 'overlap', file: '' }, { strategy: 'overlap', file: '' })).toBeUndefined();
    expect(programChange({ strategy: 'external', file: '/bin/x@0123456789ab' }, plugin('x', '/bin/x', '0123456789ab'))).toBe('ran an external program, and this run gives it the module of strategy x');
  });
});

describe('--resume of many copies of one puzzle', () => {
  it('checks their paths in time linear in the puzzles (10,000 copies took minutes: each was compared with every other)', () => {
    const d = dir();
    const file = join(d, 'copies.txt');
    writeFileSync(file, Array.from({ length: 10_000 }, (_, i) => `$${i + 1}\n0\n0\n`).join(''));
    const out = join(d, 'run.csv');
    // The file a run of all 10,000 copies writes, without the 10,000 solves: its first task's row as
    // the run wrote it, then each copy's row, which differs from it only in its task and path (and times).
    expect(runCli('run', `${file}#1`, '-s', 'overlap', '--out', out, '--quiet').code).toBe(0);
    const { columns, records } = parseCsv(readFileSync(out, 'utf8'));
    expect(records.map((row) => [row.task, row.puzzle_path])).toEqual([['0', `${file}#1`]]);
    writeCsv(out, columns, Array.from({ length: 10_000 }, (_, i) => ({ ...records[0], task: String(i), puzzle_path: `${file}#${i + 1}` })));
    const started = performance.now();
    const again = runCli('run', file, '-s', 'overlap', '--resume', out, '--quiet');
    // Not a speed target: a guard against the quadratic check, which took about 2 minutes here.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect([again.code, again.err, again.out]).toEqual([0, '', expect.stringContaining('10000 already recorded')]);
  });
});
