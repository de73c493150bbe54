import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InputError, InputErrors, oneLineText } from '../../corpus/errors.js';
import { readJson } from '../../corpus/formats/json-reader.js';
import { parseJsonPuzzles } from '../../corpus/formats/json.js';
import { parseNon, readNon } from '../../corpus/formats/non.js';
import { parseTournament } from '../../corpus/formats/tournament.js';
import { displayPath, listPuzzleFiles, loadCorpus, MAX_FILE_PROBLEMS, readText } from '../../corpus/load.js';
import type { Puzzle } from '../../corpus/model.js';
import { problemsOf } from '../helpers/problems.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * Hostile and unusual input found by an audit: each case must end in one-line `FILE:LINE: message`
 * problems for that file alone, never in an exception, a hang or a flood of output.
 */

const newDir = tempDirs('robust');
const CROSS = 'width 5\nheight 5\n\nrows\n1\n1\n5\n1\n1\n\ncolumns\n1\n1\n5\n1\n1\n';
const CROSS_JSON = '{"rows": [[1], [1], [5], [1], [1]], "columns": [[1], [1], [5], [1], [1]]}';

/** Writes a file into a fresh temporary directory and returns its path as the loader shows it. */
function file(name: string, content: string | Uint8Array): string {
  const path = join(newDir(), name);
  writeFileSync(path, content);
  return displayPath(path);
}

/** Loads paths; the problems as [file, line, message] and the puzzles. */
function load(...paths: string[]): { problems: [string, number, string][]; puzzles: Puzzle[] } {
  const { puzzles, errors } = loadCorpus(paths);
  return { puzzles, problems: errors.map((e) => [e.file, e.line, e.detail]) };
}

const essence = (p: Puzzle) => ({ rows: p.rows, columns: p.columns, title: p.meta.title });

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    // The time limit turns a hang (a pipe read forever, an endless walk) into a failure instead of a stuck suite.
    execFile(process.execPath, ['dist/harness/cli.js', ...args], { encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('deep nesting', () => {
  it('reports JSON and XML nested thousands of levels deep at their line instead of overflowing the stack', () => {
    const json = file('deep.json', `\n${'['.repeat(5000)}${']'.repeat(5000)}`);
    const xml = file('deep.xml', `<puzzleset>\n<puzzle><title>${'<b>'.repeat(3000)}x${'</b>'.repeat(3000)}</title></puzzle></puzzleset>`);
    const good = file('good.json', CROSS_JSON);
    const { problems, puzzles } = load(json, xml, good);
    expect(problems).toEqual([
      [json, 2, 'nesting deeper than 64 levels'],
      [xml, 2, 'nesting deeper than 64 levels'],
    ]);
    expect(puzzles).toHaveLength(1);
  });

  it('accepts 64 levels and refuses 65', () => {
    expect(readJson(`${'['.repeat(64)}${']'.repeat(64)}`, 'ok.json').kind).toBe('array');
    expect(problemsOf(() => readJson(`${'['.repeat(65)}${']'.repeat(65)}`, 'deep.json'))).toEqual([['deep.json', 1, 'nesting deeper than 64 levels']]);
  });

  it('gives one line on stderr from the CLI, not "Maximum call stack size exceeded"', async () => {
    if (!existsSync('dist/harness/cli.js')) throw new Error('dist/harness/cli.js is missing: build first');
    const json = file('deep.json', `${'['.repeat(5000)}${']'.repeat(5000)}`);
    const run = await cli(['convert', json, '-', '--format', 'json']);
    expect([run.code, run.stderr]).toEqual([2, `${json}:1: nesting deeper than 64 levels\n`]);
  });
});

describe('an unexpected failure while reading one file', () => {
  afterEach(() => {
    vi.doUnmock('../../corpus/formats/index.js');
    vi.resetModules();
  });

  it('becomes one line for that file and the load goes on', async () => {
    vi.resetModules();
    vi.doMock('../../corpus/formats/index.js', async (original) => {
      const real = await original<typeof import('../../corpus/formats/index.js')>();
      return {
        ...real,
        readRawPuzzles: (text: string, name: string, options?: Parameters<typeof real.readRawPuzzles>[2]) => {
          if (name.endsWith('bug.non')) throw new RangeError('Maximum call stack size exceeded');
          return real.readRawPuzzles(text, name, options);
        },
      };
    });
    const { loadCorpus: loadFresh } = await import('../../corpus/load.js');
    const bug = file('bug.non', CROSS);
    const good = file('good.non', CROSS);
    const { puzzles, errors } = loadFresh([bug, good]);
    expect(errors.map((e) => e.message)).toEqual([`${bug}:0: cannot read the file (unexpected error: Maximum call stack size exceeded)`]);
    expect(puzzles.map((p) => p.meta.source)).toEqual([good]);
  });
});

describe('.non lines holding U+2028 or U+2029', () => {
  it('read a raw line separator inside a value', () => {
    const sep = file('sep.non', 'title "a\u2028b"\nby c\u2029d\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n');
    const { problems, puzzles } = load(sep);
    expect(problems).toEqual([]);
    expect([puzzles[0]!.meta.title, puzzles[0]!.meta.author]).toEqual(['a\u2028b', 'c\u2029d']);
  });

  it('read a value after a long run of spaces, in linear time', () => {
    // Backtracking made this quadratic: 100,000 spaces took about 15 s.
    const long = file('long.non', `width 1\nheight 1\nrows\n1\ncolumns\n1\ntitle${' '.repeat(100_000)}x\u2028y\n`);
    const { problems, puzzles } = load(long);
    expect(problems).toEqual([]);
    expect(puzzles[0]!.meta.title).toBe('x\u2028y');
  });
});

describe('files with millions of problems', () => {
  /** The problems an InputErrors carries: [kept, counted]. */
  const counts = (fn: () => unknown): [number, number] => {
    try {
      fn();
    } catch (err) {
      if (err instanceof InputErrors) return [err.problems.length, err.more];
      throw err;
    }
    throw new Error('expected InputErrors');
  };

  it(`keep ${MAX_FILE_PROBLEMS} problems of a file and count the rest, from the reader on`, () => {
    const stray = '1\n'.repeat(300_000);
    const [raw] = readNon(stray, 'stray.non');
    expect([raw!.problems.length, raw!.more]).toEqual([MAX_FILE_PROBLEMS, 300_000 - MAX_FILE_PROBLEMS]);
    // Also missing: width, height, rows, columns.
    expect(counts(() => parseNon(stray, 'stray.non'))).toEqual([MAX_FILE_PROBLEMS, 300_004 - MAX_FILE_PROBLEMS]);
    const json = `{"rows": [[${Array(300_000).fill('-1').join(',')}]], "columns": [[1]]}`;
    expect(counts(() => parseJsonPuzzles(json, 'neg.json'))).toEqual([MAX_FILE_PROBLEMS, 300_000 - MAX_FILE_PROBLEMS]);
    const bad = file('stray.non', stray);
    const { problems } = load(bad);
    expect(problems).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(problems[0]).toEqual([bad, 1, 'clue line outside rows/columns: "1"']);
    expect(problems[MAX_FILE_PROBLEMS]).toEqual([bad, 0, `… and ${300_004 - MAX_FILE_PROBLEMS} more problems`]);
  });

  it('share the budget among the members of a bundle, and keep the problems of a member asked for', () => {
    const pack = '1\n====\n'.repeat(30_000);
    const raws = readNon(pack, 'pack.nonpack');
    expect(raws.reduce((n, r) => n + r.problems.length, 0)).toBe(MAX_FILE_PROBLEMS);
    expect(raws.reduce((n, r) => n + r.more, 0)).toBe(30_000 - MAX_FILE_PROBLEMS);
    const bad = file('pack.nonpack', pack);
    expect(load(`${bad}#20000`).problems).toEqual([
      [bad, 39_999, 'clue line outside rows/columns: "1"'],
      ...['rows', 'columns', 'width', 'height'].map((what) => [bad, 39_999, `puzzle 20000: missing ${what}`]),
    ]);
    // A member loaded before spends none of the budget of a later load of the whole file.
    const first = file('first.nonpack', `${'1\n'.repeat(MAX_FILE_PROBLEMS)}====\n${'1\n====\n'.repeat(100)}`);
    const again = load(`${first}#1`, first).problems;
    expect(again[MAX_FILE_PROBLEMS + 1]).toEqual([first, MAX_FILE_PROBLEMS + 2, 'clue line outside rows/columns: "1"']);
    // Out of range: what is wrong with the file, from its first member on.
    const outside = load(`${bad}#200000`).problems;
    expect(outside[0]).toEqual([bad, 1, 'clue line outside rows/columns: "1"']);
    expect(outside[MAX_FILE_PROBLEMS]).toEqual([bad, 0, `… and ${150_000 - MAX_FILE_PROBLEMS} more problems`]);
  });

  it('do not read clues item by item once their count is refused', () => {
    const questions = `$1\n${'x\n'.repeat(400_000)}`;
    expect(problemsOf(() => parseTournament(questions, 'big.txt'))).toEqual([
      ['big.txt', 1, 'width 200000 is above the limit of 200 (raise it with --max-size)'],
      ['big.txt', 1, 'height 200000 is above the limit of 200 (raise it with --max-size)'],
    ]);
  });

  it('make an InputErrors message of at most the kept problems and a count', () => {
    const stray = '1\n'.repeat(1000);
    try {
      parseNon(stray, 's.non');
      expect.unreachable();
    } catch (err) {
      const lines = (err as InputErrors).message.split('\n');
      expect(lines).toHaveLength(MAX_FILE_PROBLEMS + 1);
      expect(lines.at(-1)).toBe(`s.non:0: … and ${1004 - MAX_FILE_PROBLEMS} more problems`);
    }
    expect(problemsOf(() => parseNon(stray, 's.non')).at(-1)).toEqual(['s.non', 0, `… and ${1004 - MAX_FILE_PROBLEMS} more problems`]);
  });
});

describe('.non clue lines that begin with a letter', () => {
  it('are bad clues on their own line inside a block, not keys', () => {
    const non = file('word.non', CROSS.replace('rows\n1\n1\n', 'rows\n1\ntwo\n'));
    expect(load(non).problems).toEqual([[non, 6, 'row 2: clue "two" is not an integer']]);
  });

  it('still end a block when they are known keys, and an unknown key after a complete block is still ignored', () => {
    const known = file('known.non', 'width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n0\ngoal "1010"\n');
    const unknown = file('unknown.non', 'width 2\nheight 2\nrows\n1\n1\ndifficulty hard\ncolumns\n2\n0\n');
    const { problems, puzzles } = load(known, unknown);
    expect(problems).toEqual([]);
    expect(puzzles.map((p) => p.columns)).toEqual([[[2], []], [[2], []]]);
  });
});

describe('input errors', () => {
  it('carry no stack trace, and leave the limit of every other error as it was, even when they cannot be built', () => {
    const limit = Error.stackTraceLimit;
    const problem = new InputError('f.non', 3, 'bad');
    expect(problem.stack).toBe('InputError: f.non:3: bad');
    expect(new InputErrors([problem]).stack).toBe('InputErrors: f.non:3: bad');
    expect(() => new InputError(undefined as unknown as string, 1, 'x')).toThrow(TypeError);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('later').stack!.split('\n').length).toBeGreaterThan(1);
  });
});

describe('duplicates', () => {
  it('reports a repeated key of a JSON puzzle', () => {
    const json = file('dup.json', '{"rows": [[1], [1]], "columns": [[2], []],\n"goal": "1010",\n"goal": "1011"}');
    expect(load(json).problems).toEqual([[json, 3, 'duplicate "goal" key (first on line 2)']]);
  });

  it('reports a repeated $N once, in the questions and in the solutions file', () => {
    const questions = '$1\n1\n0\n1\n0\n$1\n1\n0\n1\n0\n$2\n1\n0\n1\n0\n';
    const solutions = '$1\n1\t0\n0\t0\n$1\n1\t1\n0\t0\n$2\n1\t0\n0\t0\n';
    expect(problemsOf(() => parseTournament(questions, 'q.txt', { solutionsText: solutions, solutionsFile: 's.txt' }))).toEqual([
      ['s.txt', 4, 'duplicate $1 (first on line 1)'],
      ['q.txt', 6, 'duplicate $1 (first on line 1)'],
    ]);
  });

  it('reads a solutions file of many trailing blank lines or many repeated labels (each once, in linear time)', () => {
    const questions = '$1\n1\n0\n1\n0\n';
    const blank = `$1\n1\t0\n0\t0\n${'\n'.repeat(50_000)}`;
    const [p] = parseTournament(questions, 'q.txt', { solutionsText: blank, solutionsFile: 's.txt' });
    expect(p!.goal).toBeDefined();
    const repeated = `$1\n1\t0\n0\t0\n${'$1\n'.repeat(200_000)}`;
    const problems = problemsOf(() => parseTournament(questions, 'q.txt', { solutionsText: repeated, solutionsFile: 's.txt' }));
    expect(problems).toEqual([['s.txt', 4, 'duplicate $1 (first on line 1, and 199999 more repeats up to line 200003)']]);
  });

  it('reports all the repeats of a label in a questions file as one problem, and reads the puzzles around them', () => {
    const questions = `$1\n1\n0\n1\n0\n${'$1\n2\n2\n'.repeat(100_000)}$2\n0\n1\n0\n1\n$1\n`;
    const q = file('q.txt', questions);
    const { puzzles, problems } = load(q);
    expect(puzzles.map((p) => p.columns)).toEqual([[[1], []], [[], [1]]]);
    expect(problems).toEqual([[q, 6, 'duplicate $1 (first on line 1, and 100000 more repeats up to line 300011)']]);
  });

  it('count the repeats of a label as one puzzle where the first stands, and report problems in line order', () => {
    const q = file('q.txt', '$1\n1\n1\n$1\n1\n1\n$2\n1\n0\n1\n0\n$1\n$3\n0\n0\n$4\n1\n');
    expect(load(`${q}#3`).puzzles.map((p) => p.columns)).toEqual([[[1], []]]);
    expect(load(`${q}#4`).puzzles.map((p) => p.columns)).toEqual([[[]]]);
    expect(load(q).problems).toEqual([
      [q, 4, 'duplicate $1 (first on line 1, and 1 more repeat up to line 12)'],
      [q, 16, '$4: 1 clue lines; expected N column clues then N row clues'],
    ]);
  });
});

describe('folder walks', () => {
  it('read each real directory once through symbolic-link cycles', () => {
    const root = newDir();
    mkdirSync(join(root, 'self'));
    writeFileSync(join(root, 'self', 'a.non'), CROSS);
    symlinkSync('.', join(root, 'self', 'again'));
    mkdirSync(join(root, 'up', 'sub'), { recursive: true });
    writeFileSync(join(root, 'up', 'b.non'), CROSS);
    writeFileSync(join(root, 'up', 'sub', 'c.non'), CROSS);
    symlinkSync('..', join(root, 'up', 'sub', 'parent'));
    expect(listPuzzleFiles(join(root, 'self'))).toEqual([join(root, 'self', 'a.non')]);
    expect(listPuzzleFiles(join(root, 'up'))).toEqual([join(root, 'up', 'b.non'), join(root, 'up', 'sub', 'c.non')]);
    expect(load(join(root, 'self'), join(root, 'up')).puzzles).toHaveLength(3);
  });

  it('do not follow a link to a folder that holds it out of the named folder, as /proc/N/root does', () => {
    const root = newDir();
    writeFileSync(join(root, 'outside.non'), CROSS);
    mkdirSync(join(root, 'named', 'proc', '1'), { recursive: true });
    writeFileSync(join(root, 'named', 'inside.non'), CROSS);
    symlinkSync(root, join(root, 'named', 'proc', '1', 'root'));
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'elsewhere', 'linked.non'), CROSS);
    symlinkSync(join(root, 'elsewhere'), join(root, 'named', 'proc', '1', 'cwd'));
    expect(listPuzzleFiles(join(root, 'named'))).toEqual([join(root, 'named', 'inside.non'), join(root, 'named', 'proc', '1', 'cwd', 'linked.non')]);
  });

  it('load a file reached twice (named twice, through a link, inside a named folder) once, where first met', () => {
    const root = newDir();
    writeFileSync(join(root, 'a.non'), CROSS);
    symlinkSync('a.non', join(root, 'b.non'));
    const tournament = join(root, 'set.txt');
    writeFileSync(tournament, '$1\n1\n0\n1\n0\n$2\n1\n1\n1\n1\n');
    const sources = (...paths: string[]) => load(...paths).puzzles.map((p) => p.meta.source);
    expect(sources(root)).toEqual([join(root, 'a.non'), `${tournament}#1`, `${tournament}#2`].map(displayPath));
    expect(sources(join(root, 'b.non'), root)).toEqual([join(root, 'b.non'), `${tournament}#1`, `${tournament}#2`].map(displayPath));
    expect(sources(`${tournament}#2`, tournament, `${tournament}#2`)).toEqual([`${tournament}#2`, `${tournament}#1`].map(displayPath));
  });

  it('skip a pipe found in a folder without blocking, and read one given by name', async () => {
    const dir = newDir();
    writeFileSync(join(dir, 'good.non'), CROSS);
    execFileSync('mkfifo', [join(dir, 'x.non')]);
    execFileSync('mkfifo', [join(dir, 'y.txt')]);
    const folder = await cli(['convert', dir, '-', '--format', 'json']);
    expect([folder.code, folder.stderr]).toEqual([0, '']);
    expect(JSON.parse(folder.stdout)).toMatchObject({ rows: [[1], [1], [5], [1], [1]] });
    // Named, as `<(command)` names one: read to its end once a writer has filled it.
    const pipe = join(dir, 'x.non');
    const reading = cli(['convert', pipe, '-', '--format', 'json']);
    execFileSync('sh', ['-c', 'cat "$0" > "$1"', join(dir, 'good.non'), pipe]);
    const named = await reading;
    expect([named.code, named.stderr]).toEqual([0, '']);
    expect(JSON.parse(named.stdout)).toMatchObject({ rows: [[1], [1], [5], [1], [1]] });
  });

  /** Waits until the process sleeps opening or reading a pipe (its kernel wait channel says so; `wait` narrows which), at most 10 s. */
  async function blockedOnPipe(pid: number, wait = /fifo|pipe|partner/): Promise<void> {
    for (let waited = 0; waited < 10_000; waited += 50) {
      let channel = '';
      try {
        channel = readFileSync(`/proc/${pid}/wchan`, 'utf8');
      } catch {}
      if (wait.test(channel)) return;
      await new Promise((wait) => setTimeout(wait, 50));
    }
    throw new Error(`process ${pid} never blocked on the pipe`);
  }

  it('restores a listener added with once as such after reading a pipe', () => {
    const pipe = join(newDir(), 'p.non');
    execFileSync('mkfifo', [pipe]);
    execFile('sh', ['-c', 'printf x > "$0"', pipe]);
    let calls = 0;
    process.once('SIGHUP', () => calls++);
    expect(readText(pipe)).toBe('x');
    process.emit('SIGHUP');
    process.emit('SIGHUP');
    expect(calls).toBe(1);
  });

  it('lets Ctrl-C, SIGTERM and SIGHUP end a run blocked on a named pipe that no one writes', async () => {
    const dir = newDir();
    const pipe = join(dir, 'never.non');
    execFileSync('mkfifo', [pipe]);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const child = spawn(process.execPath, ['dist/harness/cli.js', 'run', pipe, '-s', 'overlap', '--out', join(dir, `${signal}.csv`), '--quiet'], { stdio: 'ignore' });
      const ended = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, by) => done(by)));
      await blockedOnPipe(child.pid!);
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      expect(await ended).toBe(signal);
      clearTimeout(timer);
    }
  });

  it('lets Ctrl-C and SIGTERM end a command writing to a named pipe that no one reads', async () => {
    const dir = newDir();
    const commands = [
      ['run', 'corpus/puzzles/webpbn/1.non', '-s', 'overlap', '--warmup', '0', '--quiet', '--out'],
      ['report', 'reports/baseline.csv', '--out'],
      ['cnf', 'corpus/puzzles/webpbn/1.non', '--out'],
      ['classify', 'corpus/puzzles/webpbn/1.non', '--workers', '1', '--out'],
    ];
    for (const [k, args] of commands.entries())
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const pipe = join(dir, `out-${k}-${signal}`);
        execFileSync('mkfifo', [pipe]);
        const child = spawn(process.execPath, ['dist/harness/cli.js', ...args, pipe], { stdio: 'ignore' });
        const ended = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, by) => done(by)));
        await blockedOnPipe(child.pid!, /partner/); // opening the pipe, which waits for a reader
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        expect(await ended, `${args[0]} ${signal}`).toBe(signal);
        clearTimeout(timer);
      }
    // With a reader, the pipe gets the whole output.
    const pipe = join(dir, 'read.csv');
    execFileSync('mkfifo', [pipe]);
    const read = new Promise<string>((done) => execFile('cat', [pipe], (_err, out) => done(out)));
    const written = await cli(['run', 'corpus/puzzles/webpbn/1.non', '-s', 'overlap', '--warmup', '0', '--quiet', '--out', pipe]);
    expect(written.code).toBe(0);
    expect((await read).split('\n')[0]).toMatch(/^run_id,started_at,/);
  }, 60_000);

  it('refuses a run CSV that is a named pipe or a device at once: it is read in place, by position', async () => {
    const pipe = join(newDir(), 'in.csv');
    execFileSync('mkfifo', [pipe]);
    for (const args of [['compare', pipe, 'reports/baseline.csv'], ['report', pipe, '--out', join(newDir(), 'r.html')], ['merge', join(newDir(), 'm.csv'), pipe], ['compare', '/dev/zero', 'reports/baseline.csv']]) {
      const r = await cli(args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, `${args.includes('/dev/zero') ? '/dev/zero' : pipe}:0: cannot read the file (not a regular file: a run CSV is read in place)\n`]);
    }
  });

  it('refuses a device given by name, which could be read forever', async () => {
    const device = await cli(['convert', '/dev/zero', '-', '--format', 'json']);
    expect([device.code, device.stderr]).toEqual([2, '/dev/zero:0: cannot read the file (not a regular file or pipe)\n']);
  });
});

describe('text decoding', () => {
  const withTitle = `title "café"\n${CROSS}`;

  it('reads UTF-16 with a byte-order mark, both byte orders', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(withTitle, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(withTitle, 'utf16le').swap16()]);
    const { problems, puzzles } = load(file('le.non', le), file('be.non', be));
    expect(problems).toEqual([]);
    expect(puzzles.map(essence)).toEqual([0, 1].map(() => ({ rows: [[1], [1], [5], [1], [1]], columns: [[1], [1], [5], [1], [1]], title: 'café' })));
  });

  it('reads text that is not UTF-8 as Latin-1, and CR-only line ends as line breaks', () => {
    const { problems, puzzles } = load(file('latin1.non', Buffer.from(withTitle, 'latin1')), file('mac.non', withTitle.replace(/\n/g, '\r')));
    expect(problems).toEqual([]);
    expect(puzzles.map((p) => p.meta.title)).toEqual(['café', 'café']);
  });

  it('reports binary data once, at line 1', () => {
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_x, k) => (k * 131 + 7) % 256));
    const binary = file('blob.non', bytes);
    const nul = file('nul.non', CROSS.replace('5\n1\n1\n\ncolumns', '5\0\n1\n1\n\ncolumns'));
    expect(load(binary, nul).problems).toEqual([
      [binary, 1, 'not a text file (binary data)'],
      [nul, 1, 'not a text file (binary data)'],
    ]);
  });

  it(`reports at most ${MAX_FILE_PROBLEMS} problems of one file, then how many more`, () => {
    const rows = Array.from({ length: 30 }, () => '2.5').join('\n');
    const bad = file('many.non', `width 1\nheight 30\nrows\n${rows}\ncolumns\n0\n`);
    const { problems } = load(bad);
    expect(problems).toHaveLength(MAX_FILE_PROBLEMS + 1);
    expect(problems[0]).toEqual([bad, 4, 'row 1: clue "2.5" is not an integer']);
    expect(problems[MAX_FILE_PROBLEMS]).toEqual([bad, 0, '… and 20 more problems']);
  });
});

describe('messages', () => {
  it('quote at most 80 characters of the input', () => {
    const clue = Array.from({ length: 100_000 }, () => '1').join(' ');
    const long = file('long.non', `width 5\nheight 1\nrows\n${clue}\ncolumns\n1\n1\n1\n1\n1\n`);
    const word = file('word.non', `width 1\nheight 1\nrows\n${'y'.repeat(5000)}\ncolumns\n1\n`);
    expect(load(long, word).problems).toEqual([
      [long, 4, `row 1: clue ${'1,'.repeat(39)}1… needs 199999 cells but the row has 5`],
      [word, 4, `row 1: clue "${'y'.repeat(79)}…" is not an integer`],
    ]);
  });

  it('quote a clue number too large to print exactly as written', () => {
    const huge = file('huge-clue.non', 'width 5\nheight 1\nrows\n99999999999999999999\ncolumns\n1\n1\n1\n1\n1\n');
    expect(load(huge).problems).toEqual([[huge, 4, 'row 1: clue 99999999999999999999 is too large']]);
  });

  it('say once that a clue has zeros among its blocks, however many it has', () => {
    const zeros = file('zeros.non', 'width 5\nheight 1\nrows\n3,0,0\ncolumns\n1\n1\n1\n0\n0\n');
    expect(load(zeros).problems).toEqual([[zeros, 4, 'row 1: a 0 inside the clue "3,0,0" (0 stands alone, for an empty line)']]);
  });

  it('quote a huge size as written and escape C1 control characters', () => {
    const huge = file('huge.non', 'width 99999999999999999999999\nheight 1\nrows\n1\ncolumns\n1\n');
    const c1 = file('c1.non', 'width 1\nheight 1\nrows\n1\u009b31m\ncolumns\n1\n');
    expect(load(huge, c1).problems).toEqual([
      [huge, 1, 'width 99999999999999999999999 is above the limit of 200 (raise it with --max-size)'],
      [c1, 4, 'row 1: clue "1\\x9b31m" is not an integer'],
    ]);
    expect(oneLineText('a\u0085b\u007fc\u2028')).toBe('a\\x85b\\x7fc\\u2028');
    // Bidirectional overrides and isolates would show the rest of a line reversed.
    expect(oneLineText('a\u202eb\u2066c\u2069')).toBe('a\\u202eb\\u2066c\\u2069');
  });
});

describe('XML errors', () => {
  it('cut a name saxes quotes in full', () => {
    const name = 'a'.repeat(5000);
    const x9 = file('x9.xml', `<puzzle><a ${name}="1" ${name}="2"/></puzzle>\n`);
    expect(load(x9).problems).toEqual([[x9, 1, `invalid XML: duplicate attribute: ${'a'.repeat(79)}…`]]);
  });
});

describe('webpbn XML clue lines', () => {
  const xml = (rows: string) =>
    `<puzzle>\n<clue type="columns"><line><count>1</count></line><line><count>1</count></line></clue>\n${rows}\n</puzzle>`;

  it('reports text written directly inside <line>', () => {
    const bad = file('text.xml', xml('<clue type="rows">\n<line><count>1</count></line>\n<line>1</line>\n</clue>'));
    expect(load(bad).problems).toEqual([[bad, 5, 'text "1" directly inside <line>: write each number as <count>N</count>']]);
  });

  it('reports a duplicate <clue> without knock-on errors', () => {
    const rows = '<clue type="rows"><line><count>1</count></line><line><count>1</count></line></clue>';
    const bad = file('dup.xml', xml(`<clue type="rows"><line><count>3</count></line></clue>\n${rows}`));
    expect(load(bad).problems).toEqual([[bad, 4, 'duplicate <clue type="rows">']]);
  });
});
