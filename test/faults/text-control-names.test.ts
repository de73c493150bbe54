import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, oneLineText } from '../../corpus/errors.js';
import { thrownMessage } from '../../harness/io/thrown.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * A file name holding a line break, a terminal escape or another control character must never reach
 * stderr raw: every problem stays one `FILE:LINE: message` line, and no escape sequence reaches the terminal.
 */

requireBuiltCli();
const newDir = tempDirs('names');

/** Any character that would break a line or drive a terminal. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;
/** One problem line: `FILE:LINE: message`. */
const PROBLEM = /^.+:\d+: \S/;

const CROSS = 'width 5\nheight 5\n\nrows\n1\n1\n5\n1\n1\n\ncolumns\n1\n1\n5\n1\n1\n';
/** A puzzle whose one bad clue also quotes a terminal escape. */
const BAD = 'width 1\nheight 1\nrows\n1\u001b[2J\ncolumns\n1\n';

const NAMES = ['new\nline', 'esc\u001b[31mred', 'csi\u009b31m', 'sep\u2028par\u2029', 'del\u007fbell\u0007', 'cr\rtab\t'];

/** stderr's lines; each must be a whole problem line without raw control characters. */
function problemLines(err: string): string[] {
  expect(err.endsWith('\n')).toBe(true);
  const lines = err.slice(0, -1).split('\n');
  for (const line of lines) {
    expect(line, JSON.stringify(line)).not.toMatch(CONTROL);
    expect(line).not.toContain('\t');
    expect(line).not.toContain('\r');
  }
  return lines;
}

describe('control characters in file names', () => {
  const dir = newDir();
  const bad = NAMES.map((name) => {
    const file = join(dir, `${name}.non`);
    writeFileSync(file, BAD);
    return file;
  });
  const good = join(dir, 'cross.non');
  writeFileSync(good, CROSS);

  it('check: one escaped line per bad puzzle, and per bad grid file', () => {
    for (const file of bad) {
      const { code, err } = runCli('check', file, good);
      expect(code).toBe(2);
      const lines = problemLines(err);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(`${oneLineText(file)}:4: row 1: clue "1\\x1b[2J" is not an integer`);
    }
    const grid = join(dir, 'grid\n\u001b[2J.txt');
    writeFileSync(grid, '..#..\n..#..\n#####\n..#..\n..x\u001b\n');
    const { code, err } = runCli('check', good, grid);
    expect(code).toBe(2);
    expect(problemLines(err)).toEqual([`${join(dir, 'grid\\n\\x1b[2J.txt')}:5: row 5 has 4 cells, expected 5`]);
  });

  it('solve: one escaped line', () => {
    for (const file of bad) {
      const { code, err } = runCli('solve', file);
      expect(code).toBe(2);
      expect(problemLines(err)).toEqual([`${oneLineText(file)}:4: row 1: clue "1\\x1b[2J" is not an integer`]);
    }
 
    // A good puzzle under such a name: the picture's heading is escaped, and the JSON keeps the name, escaped as JSON.
    const named = join(newDir(), 'cross\n\u001b[2J\u009b\u2028.non');
    writeFileSync(named, CROSS);
    const text = runCli('solve', named);
    expect(text.code).toBe(0);
    expect(text.out).not.toMatch(CONTROL);
    expect(text.out.split('\n')[0]).toContain(oneLineText(named));
    const json = runCli('solve', named, '--json');
    expect(json.code).toBe(0);
    expect(json.out).not.toMatch(CONTROL);
    expect(json.out.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.out).source).toBe(named);
  });

  it('classify: one escaped line per bad file, progress lines included', () => {
    const { code, err, out } = runCli('classify', dir, '--workers', '1', '--out', join(newDir(), 'c.csv'));
    expect(code).toBe(2);
    const lines = problemLines(err);
    const problems = lines.filter((l) => PROBLEM.test(l));
    expect(problems).toHaveLength(NAMES.length);
    // Anything else on stderr is a progress line.
    for (const l of lines.filter((l) => !PROBLEM.test(l))) expect(l).toMatch(/^solving \d+\/\d+/);
    for (const file of bad) expect(problems).toContain(`${oneLineText(file)}:4: row 1: clue "1\\x1b[2J" is not an integer`);
    expect(out).not.toMatch(CONTROL);
  });

  it('a folder, a directory walk and a model file named with control characters', () => {
    const parent = newDir();
    const sub = join(parent, 'sub\ndir\u001b');
    mkdirSync(sub);
    writeFileSync(join(sub, 'empty\u0085.non'), '');
    const walked = runCli('convert', parent, '-');
    expect(walked.code).toBe(2);
    expect(problemLines(walked.err)).toHaveLength(1);
    const model = join(parent, 'model\n.txt');
    writeFileSync(model, 'gibberish\u001b[5m\n');
    const decoded = runCli('cnf', good, '--decode', model);
    expect(decoded.code).toBe(2);
    const [line] = problemLines(decoded.err);
    expect(line!.startsWith(`${join(parent, 'model\\n.txt')}:`)).toBe(true);
  });

  it('cnf: the file name in a comment of the CNF stays inside that comment', () => {
    const named = join(newDir(), 'cross\np cnf 1 1\n\u001b.non');
    writeFileSync(named, CROSS);
    const { code, out } = runCli('cnf', named);
    expect(code).toBe(0);
    for (const line of out.trimEnd().split('\n')) {
      expect(line).toMatch(/^(c |p cnf \d+ \d+$|-?\d)/);
      expect(line).not.toMatch(CONTROL);
    }
    expect(out.match(/^p /gm)).toHaveLength(1);
  });

  it('the line of an InputError and of any other thrown error escapes them too', () => {
    const e = new InputError('a\nb\u001bc\u2028.non', 3, 'bad "\u009b"');
    expect(e.message).toBe('a\\nb\\x1bc\\u2028.non:3: bad "\\x9b"');
    expect(e.file).toBe('a\nb\u001bc\u2028.non'); // to open it again
    expect(thrownMessage(new Error("ENOENT: open 'x\u001b[2J\ny'"))).toBe("ENOENT: open 'x\\x1b[2J y'");
  });
});
