import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { ensureDir } from '../../harness/io/output-path.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSeries, writeSeriesFiles } from '../../corpus/generate.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('gen-report-robust');

const cli = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    if (!existsSync('dist/harness/cli.js')) throw new Error('dist/harness/cli.js is missing: build first');
    execFile(process.execPath, ['dist/harness/cli.js', ...args], { encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });

const PUZZLE = 'corpus/puzzles/generated/20x20/001.non';

describe('generate writes as it goes', () => {
  it('writes each puzzle before making the next (a long series is never held in memory)', () => {
    const dir = join(tmp(), 'lazy');
    const files = writeSeriesFiles({ width: 5, height: 5, density: 0.5, count: 1_000_000, seed: 1 }, dir);
    expect(files.next().value).toBe(join(dir, '0000001.non'));
    expect(files.next().value).toBe(join(dir, '0000002.non'));
    expect(readdirSync(dir)).toEqual(['0000001.non', '0000002.non']);
    // Puzzle k does not depend on the count, so a short series gives the expected text.
    expect(readFileSync(join(dir, '0000002.non'), 'utf8')).toBe(generateSeries({ width: 5, height: 5, density: 0.5, count: 2, seed: 1 })[1]!.text);
  });

  it('refuses a count beyond the bound at once, with the help hint', async () => {
    const out = join(tmp(), 'never');
    const r = await cli(['generate', '--count', '100000000', '--width', '5', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--count must be a whole number from 1 to 1000000');
    expect(r.stderr).toContain('(see nonobench generate --help)');
    expect(existsSync(out)).toBe(false);
  });
});

describe('generate option errors', () => {
  const bad: [string[], string][] = [
    [['--density', '1.5'], "option '--density <d>' argument '1.5' is invalid. --density must be a number from 0 to 1"],
    [['--density', 'NaN'], '--density must be a number from 0 to 1'],
    [['--width', '0'], '--width must be a whole number from 1 to 200'],
    [['--width', '100000'], "option '--width <w>' argument '100000' is invalid. --width must be a whole number from 1 to 200"],
    [['--width', '201'], '--width must be a whole number from 1 to 200'],
    [['--height', '201'], '--height must be a whole number from 1 to 200'],
    [['--count', '0'], '--count must be a whole number from 1 to 1000000'],
    [['--count', 'NaN'], '--count must be a whole number from 1 to 1000000'],
    [['--seed', '1.5'], '--seed must be a whole number from 0 to 4294967295'],
  ];
  for (const [args, message] of bad)
    it(`${args.join(' ')}: one line naming the option, the help hint, exit 2, nothing written`, async () => {
      const out = join(tmp(), 'never');
      const r = await cli(['generate', ...args, '--out', out]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(message);
      expect(lines[1]).toBe('(see nonobench generate --help)');
      expect(existsSync(out)).toBe(false);
    });

  it('--density 0 and a 200-wide puzzle are still fine', async () => {
    const out = join(tmp(), 'ok');
    const r = await cli(['generate', '--density', '0', '--width', '200', '--height', '1', '--out', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readdirSync(out)).toEqual(['001.non']);
  });
});

/** A run of overlap and backtrack over PUZZLE into DIR/run.csv; its path. */
async function runCsv(dir: string): Promise<string> {
  const csv = join(dir, 'run.csv');
  const run = await cli(['run', PUZZLE, '--strategies', 'overlap,backtrack', '--workers', '1', '--quiet', '--out', csv]);
  expect(run.code).toBe(0);
  return csv;
}

describe('output paths', () => {
  it('report, convert and cnf create a missing output folder', async () => {
    const dir = tmp();
    const csv = await runCsv(dir);
    const [report, convert, cnf] = await Promise.all([
      cli(['report', csv, '--out', join(dir, 'a', 'b', 'r.html')]),
      cli(['convert', PUZZLE, join(dir, 'c', 'd', 'p.json')]),
      cli(['cnf', PUZZLE, '--out', join(dir, 'e', 'f', 'p.cnf')]),
    ]);
    for (const r of [report, convert, cnf]) expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'a', 'b', 'r.html'), 'utf8')).toContain('<!DOCTYPE html>');
    expect(JSON.parse(readFileSync(join(dir, 'c', 'd', 'p.json'), 'utf8')).width).toBe(20);
    expect(readFileSync(join(dir, 'e', 'f', 'p.cnf'), 'utf8')).toMatch(/^c nonobench CNF/);
  });

  it('generate --out and classify --svg onto a file: one line naming it, exit 2', async () => {
    const file = join(tmp(), 'afile');
    writeFileSync(file, 'x');
    const [gen, cls, below] = await Promise.all([
      cli(['generate', '--out', file]),
      cli(['classify', PUZZLE, '--workers', '0', '--quiet', '--svg', file, '--out', join(tmp(), 'c.csv')]),
      cli(['generate', '--out', join(file, 'sub')]),
    ]);
    for (const r of [gen, cls, below]) expect([r.code, r.stderr]).toEqual([2, `nonobench: ${file}: exists and is not a directory\n`]);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('an output folder named with a trailing slash, or through a dangling link, that is no folder: refused naming it', () => {
    const d = tmp();
    const file = join(d, 'afile');
    writeFileSync(file, 'x');
    expect(() => ensureDir(`${file}/`)).toThrow(`${file}: exists and is not a directory`);
    expect(() => ensureDir(`${file}//`)).toThrow(`${file}: exists and is not a directory`);
    const dangling = join(d, 'dangling');
    symlinkSync(join(d, 'nowhere'), dangling);
    expect(() => ensureDir(dangling)).toThrow(`${dangling}: exists and is not a directory`);
    // A folder named with a trailing slash is still made, and taken when there.
    ensureDir(join(d, 'new', 'sub/'));
    ensureDir(join(d, 'new', 'sub/'));
    expect(statSync(join(d, 'new', 'sub')).isDirectory()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('an output below a file, or an empty output path: one line, exit 2, never a raw ENOTDIR or ENOENT', async () => {
    const file = join(tmp(), 'afile');
    writeFileSync(file, 'x');
    const run = ['run', PUZZLE, '-s', 'overlap', '--warmup', '0', '--quiet'];
    const csv = join(tmp(), 'in.csv');
    expect((await cli([...run, '--out', csv])).code).toBe(0);
    const below = await Promise.all([cli([...run, '--out', join(file, 'r.csv')]), cli(['merge', join(file, 'm.csv'), csv]), cli(['report', csv, '--out', join(file, 'r.html')])]);
    for (const r of below) expect([r.code, r.stderr]).toEqual([2, `nonobench: ${file}: exists and is not a directory\n`]);
    const empty = await Promise.all([cli([...run, '--out', '']), cli(['merge', '', csv])]);
    for (const r of empty) expect([r.code, r.stderr]).toEqual([2, 'nonobench: an output path is empty: name a file\n']);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('convert to standard output', () => {
  it('"-" writes .non text, and --format json still overrides', async () => {
    const [non, json] = await Promise.all([cli(['convert', PUZZLE, '-']), cli(['convert', PUZZLE, '-', '--format', 'json'])]);
    expect([non.code, non.stderr]).toEqual([0, '']);
    expect(non.stdout).toBe(readFileSync(PUZZLE, 'utf8'));
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(JSON.parse(json.stdout).width).toBe(20);
  });
});

describe('report of a run with only hard timeouts', () => {
  it('draws no cactus instead of NaN axes, and puts the puzzle on both limit lines, named for what it is', async () => {
    const dir = tmp();
    const csv = await runCsv(dir);
    // Turn every row into a hard timeout: status timeout, no time.
    const [header, ...rows] = readFileSync(csv, 'utf8').trimEnd().split('\n');
    const cols = header!.split(',');
    const [status, time] = [cols.indexOf('status'), cols.indexOf('time_ms')];
    const timedOut = rows.map((line) => {
      const cells = line.split(',');
      cells[status] = 'timeout';
      cells[time] = '';
      return cells.join(',');
    });
    writeFileSync(csv, [header, ...timedOut, ''].join('\n'));
    const out = join(dir, 'r.html');
    const r = await cli(['report', csv, '--out', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain('NaN');
    expect(html).toContain('No configuration solved any puzzle, so there is nothing to plot.');
    expect(html).toContain(`<title>${PUZZLE} — overlap: timeout; backtrack: timeout</title>`);
    expect(html).toContain('sit on the dashed lines at the time limit (10 s)');
    // Nothing solved: PAR-2 is twice the 10 s limit, with no median or total.
    expect(html).toMatch(/<tr><td>overlap<\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">1<\/td><td class="num">-<\/td><td class="num">0.00<\/td><td class="num">20.00<\/td>/);
  });
});
