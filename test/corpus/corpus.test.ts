import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runsOf } from '../../corpus/grid.js';
import { displayPath, listPuzzleFiles, loadCorpus, loadPuzzle, loadPuzzles, splitMemberPath } from '../../corpus/load.js';
import { FILLED, type Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { problemsOf } from '../helpers/problems.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('corpus')();
const CROSS_JSON = '{"rows": [[1], [1], [5], [1], [1]], "columns": [[1], [1], [5], [1], [1]]}';

/** The goal's runs line by line, without the code under test's helpers: a second opinion. */
function goalMatchesClues(p: Puzzle): boolean {
  const g = p.goal!;
  const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  for (let y = 0; y < p.height; y++) if (!same(runsOf(g, y * p.width, 1, p.width), p.rows[y]!)) return false;
  for (let x = 0; x < p.width; x++) if (!same(runsOf(g, x, p.width, p.height), p.columns[x]!)) return false;
  return g.every((c) => c === FILLED || c === 2);
}

describe('the bundled corpus', () => {
  const { puzzles, errors } = loadCorpus([BUNDLED_CORPUS]);

  it('loads every puzzle without a problem', () => {
    expect(errors.map((e) => e.message)).toEqual([]);
    const count = (prefix: string) => puzzles.filter((p) => p.meta.source!.startsWith(`corpus/puzzles/${prefix}`)).length;
    expect(count('tournament/')).toBe(1000);
    expect(count('generated/20x20/')).toBe(100);
    expect(count('generated/30x30/')).toBe(100);
    expect(count('webpbn/')).toBe(13);
    expect(count('survey/')).toBe(2);
    expect(count('seeds/')).toBe(2);
    expect(count('gnonograms/')).toBe(7);
    expect(count('qnonograms/examples/')).toBe(6);
    expect(count('qnonograms/collection1/')).toBe(20);
    expect(puzzles).toHaveLength(1250);
  });

  it('has goals that satisfy their clues wherever there is a goal', () => {
    const withGoal = puzzles.filter((p) => p.goal);
    expect(withGoal.length).toBe(1244);
    expect(withGoal.filter((p) => !goalMatchesClues(p)).map((p) => p.meta.source)).toEqual([]);
    // Every tournament puzzle got its solution from the companion file.
    expect(puzzles.filter((p) => p.meta.source!.includes('tournament/') && !p.goal)).toEqual([]);
  });

  it('keeps authorship and licences: files and keys', () => {
    for (const f of ['README.md', 'tournament/LICENSE', 'tournament/README.md', 'webpbn/README.md', 'survey/README.md', 'gnonograms/README.md', 'qnonograms/examples/README.md', 'qnonograms/collection1/README.md', 'generated/README.md'])
      expect(existsSync(join(BUNDLED_CORPUS, f)), f).toBe(true);
    const fromDb = puzzles.filter((p) => /corpus\/puzzles\/(webpbn|survey|gnonograms|qnonograms)\//.test(p.meta.source!));
    expect(fromDb.length).toBe(48);
    expect(fromDb.filter((p) => !p.meta.license || !p.meta.author).map((p) => p.meta.source)).toEqual([]);
    const dancer = loadPuzzle(join(BUNDLED_CORPUS, 'webpbn/1.non'));
    expect(dancer.meta).toMatchObject({ title: 'Dancer', author: 'Jan Wolter', copyright: '© 2004 Jan Wolter', license: 'CC-BY-3.0' });
  });

  it('gives every puzzle a source relative to the working directory and unique sources', () => {
    expect(puzzles[0]!.meta.source).toBe('corpus/puzzles/generated/20x20/001.non');
    expect(new Set(puzzles.map((p) => p.meta.source)).size).toBe(puzzles.length);
    expect(puzzles.find((p) => p.meta.source === 'corpus/puzzles/tournament/taai2011-questions.txt#1000')).toBeDefined();
  });
});

describe('FILE#N addressing', () => {
  it('selects one member of a bundle, 1-based', () => {
    const p = loadPuzzle('test/fixtures/formats/sample.nonpack#2');
    expect(p.meta).toEqual({ title: 'second, no goal', source: 'test/fixtures/formats/sample.nonpack#2' });
    const t = loadPuzzle('corpus/puzzles/tournament/taai2011-questions.txt#1000');
    expect([t.width, t.height, t.goal !== undefined]).toEqual([25, 25, true]);
    expect(t.meta.catalogue).toBe('taai2011-questions.txt $1000');
  });

  it('accepts #1 of a single-puzzle file and keeps its plain source', () => {
    expect(loadPuzzle('test/fixtures/formats/sample.non#1').meta.source).toBe('test/fixtures/formats/sample.non');
  });

  it('loads a good member of a bundle whose other member is bad', () => {
    expect(loadPuzzle('test/fixtures/bad/bundle-bad-member.nonpack#3').width).toBe(1);
    expect(problemsOf(() => loadPuzzle('test/fixtures/bad/bundle-bad-member.nonpack#2'))).toEqual([
      ['test/fixtures/bad/bundle-bad-member.nonpack', 22, 'row clues fill 4 cells but column clues fill 5'],
    ]);
  });

  it('reports members out of range and bundles given where one puzzle is needed', () => {
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#4'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzle #4: the file holds 3 puzzles'],
    ]);
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#0'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzle #0: the file holds 3 puzzles'],
    ]);
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#2-4'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzle #2-4: the file holds 3 puzzles'],
    ]);
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#3-2'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzles #3-2 (an empty range): the file holds 3 puzzles'],
    ]);
    expect(loadPuzzles('test/fixtures/formats/sample.nonpack#2-3').map((p) => p.meta.source)).toEqual([
      'test/fixtures/formats/sample.nonpack#2',
      'test/fixtures/formats/sample.nonpack#3',
    ]);
    expect(problemsOf(() => loadPuzzle('test/fixtures/formats/sample.nonpack'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'holds 3 puzzles; name one as FILE#N'],
    ]);
  });

  it('asks for one of a folder\'s files, not FILE#N, which a folder does not take, when one puzzle is wanted', () => {
    expect(problemsOf(() => loadPuzzle('corpus/puzzles/seeds'))).toEqual([
      ['corpus/puzzles/seeds', 0, 'holds 2 puzzles; name one of its files (FILE#N for a member of a bundle)'],
    ]);
  });

  it('names what is wrong with a file none of whose puzzles reads, not its member count', () => {
    const bad = join(tmp, 'bad-only.non');
    writeFileSync(bad, 'width 3\nheight 1\nrows\n9\ncolumns\n1\n1\n1\n');
    expect(problemsOf(() => loadPuzzles(`${bad}#2`))).toEqual([[displayPath(bad), 4, 'row 1: clue 9 needs 9 cells but the row has 3']]);
    const prose = join(tmp, 'NOTICE');
    writeFileSync(prose, 'Puzzles by their authors,\nby kind permission.\n');
    expect(problemsOf(() => loadPuzzles(`${prose}#3`))[0]![2]).toMatch(/^unknown format/);
  });

  it('prefers a real file whose name contains #', () => {
    const odd = join(tmp, 'odd#2');
    writeFileSync(odd, readFileSync('test/fixtures/formats/sample.non'));
    expect(splitMemberPath(odd)).toEqual({ file: odd });
    expect(splitMemberPath('a.nonpack#12')).toEqual({ file: 'a.nonpack', members: { first: 12, last: 12, text: '12' } });
    expect(splitMemberPath('a.txt#3-40')).toEqual({ file: 'a.txt', members: { first: 3, last: 40, text: '3-40' } });
    expect(loadPuzzle(odd).width).toBe(4);
  });

  it('splits FILE#N whose file name holds a line break or a line separator', () => {
    expect(splitMemberPath('a\u2028b.nonpack#2')).toEqual({ file: 'a\u2028b.nonpack', members: { first: 2, last: 2, text: '2' } });
    const dir = join(tmp, 'breaks');
    mkdirSync(dir);
    for (const name of ['line\nbreak.nonpack', 'line\u2028sep.nonpack']) {
      const path = join(dir, name);
      writeFileSync(path, readFileSync('test/fixtures/formats/sample.nonpack'));
      expect(loadPuzzle(`${path}#2`).meta).toEqual({ title: 'second, no goal', source: `${displayPath(path)}#2` });
    }
  });

  it('quotes a member number too large to print exactly as written', () => {
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#99999999999999999999999'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzle #99999999999999999999999: the file holds 3 puzzles'],
    ]);
    expect(problemsOf(() => loadPuzzles('test/fixtures/formats/sample.nonpack#2-100000000000000000000'))).toEqual([
      ['test/fixtures/formats/sample.nonpack', 0, 'no puzzle #2-100000000000000000000: the file holds 3 puzzles'],
    ]);
  });
});

describe('directories', () => {
  it('load recursively in path order, skipping hidden, README, LICENSE, notes and solutions files', () => {
    expect(loadPuzzles('test/fixtures/tree').map((p) => p.meta.source)).toEqual([
      'test/fixtures/tree/A/z.non',
      'test/fixtures/tree/a.json',
      'test/fixtures/tree/b/10.non',
      'test/fixtures/tree/b/2.non',
      'test/fixtures/tree/b/2b.nonpack',
      'test/fixtures/tree/c/t-questions.txt#1',
      'test/fixtures/tree/c/t-questions.txt#2',
    ]);
    expect(listPuzzleFiles('test/fixtures/tree').map((f) => displayPath(f))).toHaveLength(6);
  });

  it('tell a tournament .txt past more leading blank lines than a short read holds (UTF-8 and UTF-16)', () => {
    const dir = join(tmp, 'leading-blanks');
    mkdirSync(dir);
    const body = '$1\n1\n1\n';
    writeFileSync(join(dir, 'lf.txt'), `${'\n'.repeat(70)}${body}`);
    writeFileSync(join(dir, 'crlf.txt'), `${' \t\r\n'.repeat(500)}${body}`);
    writeFileSync(join(dir, 'utf16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${'\n'.repeat(40)}${body}`, 'utf16le')]));
    // Blank beyond the bytes read: loading decides, as for the file named alone.
    writeFileSync(join(dir, 'far.txt'), `${'\n'.repeat(10_000)}${body}`);
    // Still skipped: notes, an empty file, a text of blank lines only.
    writeFileSync(join(dir, 'notes.txt'), `${'\n'.repeat(70)}Some notes.\n`);
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'blank.txt'), '\n'.repeat(100));
    expect(loadPuzzles(dir).map((p) => p.meta.source)).toEqual(['crlf.txt', 'far.txt', 'lf.txt', 'utf16.txt'].map((f) => displayPath(join(dir, f))));
  });

  it('take every file with a puzzle extension, and skip only solutions files and notes among .txt files', () => {
    const dir = join(tmp, 'names');
    mkdirSync(dir);
    const non = readFileSync('test/fixtures/formats/sample.non');
    const questions = '$1\n1\n1\n';
    for (const name of ['readme.non', 'LICENSE.json', 'changelog.nonpack']) writeFileSync(join(dir, name), name.endsWith('.json') ? CROSS_JSON : non);
    writeFileSync(join(dir, 'resolution.txt'), questions);
    writeFileSync(join(dir, 'README.txt'), '$5 for the printed edition\n');
    writeFileSync(join(dir, 'set-solutions.txt'), '$1\n1\n');
    // A companion solutions file is recognised by its questions file too.
    writeFileSync(join(dir, 'xquestions.txt'), questions);
    writeFileSync(join(dir, 'xsolutions.txt'), '$1\n1\n');
    expect(listPuzzleFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual([
      'LICENSE.json',
      'changelog.nonpack',
      'readme.non',
      'resolution.txt',
      'xquestions.txt',
    ]);
    const { puzzles, errors } = loadCorpus([dir, join(dir, 'resolution.txt')]);
    expect(errors).toEqual([]);
    expect(puzzles.find((p) => p.meta.source === displayPath(join(dir, 'xquestions.txt')))!.goal).toEqual(new Uint8Array([FILLED]));
    expect(problemsOf(() => loadPuzzles(join(dir, 'set-solutions.txt')))).toEqual([
      [displayPath(join(dir, 'set-solutions.txt')), 0, 'this is a solutions file: load its questions file, which attaches it'],
    ]);
  });

  it('throw every problem of every bad file for loadPuzzles, and report empty folders', () => {
    const problems = problemsOf(() => loadPuzzles('test/fixtures/bad'));
    expect(problems.length).toBeGreaterThanOrEqual(25);
    expect(problems.some(([f]) => f === 'test/fixtures/bad/negative-clue.non')).toBe(true);
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'README.md'), '# nothing\n');
    expect(problemsOf(() => loadPuzzles(empty))).toEqual([[displayPath(empty), 0, 'no puzzle files in this directory']]);
  });
});

describe('loadCorpus', () => {
  it('goes on past bad files and bad members, collecting their errors in order', () => {
    const { puzzles, errors } = loadCorpus([
      'test/fixtures/bad/negative-clue.non',
      'test/fixtures/formats/sample.non',
      'test/fixtures/missing.non',
      '', // named as it is, not as ".", a folder of puzzles that exists
      '#2',
      '#3', // no file: never read with the one before as members of one file
      'test/fixtures/bad/bundle-bad-member.nonpack',
      'test/fixtures/tree/b',
    ]);
    expect(puzzles.map((p) => p.meta.source)).toEqual([
      'test/fixtures/formats/sample.non',
      'test/fixtures/bad/bundle-bad-member.nonpack#1',
      'test/fixtures/bad/bundle-bad-member.nonpack#3',
      'test/fixtures/tree/b/10.non',
      'test/fixtures/tree/b/2.non',
      'test/fixtures/tree/b/2b.nonpack',
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'test/fixtures/bad/negative-clue.non:11: column 2: clue -1 is negative',
      'test/fixtures/missing.non:0: cannot read the file (no such file or directory)',
      '"":0: an empty path names no puzzle file',
      '"#2":0: an empty path names no puzzle file',
      '"#3":0: an empty path names no puzzle file',
      'test/fixtures/bad/bundle-bad-member.nonpack:22: row clues fill 4 cells but column clues fill 5',
    ]);
  });

  it('reads members of one file named in a row in one pass, giving what each path gives on its own', () => {
    // bundle-bad-member.nonpack holds 3 puzzles, #2 bad; sample.nonpack 3 good ones.
    const files = ['test/fixtures/bad/bundle-bad-member.nonpack', 'test/fixtures/formats/sample.nonpack'];
    const member = fc.tuple(fc.constantFrom(...files), fc.integer({ min: 0, max: 5 }), fc.integer({ min: -1, max: 2 })).map(([f, a, span]) => (span === 0 ? `${f}#${a}` : `${f}#${a}-${a + span}`));
    fc.assert(
      fc.property(fc.array(member, { minLength: 1, maxLength: 8 }), (paths) => {
        const together = loadCorpus(paths);
        // Each path alone, a puzzle kept only where it is first met (as one load keeps it).
        const seen = new Set<string>();
        const alone = paths.map((p) => loadCorpus([p]));
        const puzzles = alone.flatMap((r) => r.puzzles).filter((p) => !seen.has(p.meta.source!) && seen.add(p.meta.source!));
        expect(together.puzzles.map((p) => p.meta.source)).toEqual(puzzles.map((p) => p.meta.source));
        // A bad member's problem is said once, where it is first met.
        const said = (r: { errors: { message: string }[] }[]) => [...new Set(r.flatMap((x) => x.errors.map((e) => e.message)))].sort();
        expect(said([together])).toEqual(said(alone));
      }),
      { numRuns: 300 },
    );
    // The suites' thousand-puzzle file, a hundred members in a row: one pass (each alone took 0.2 s).
    const many = Array.from({ length: 100 }, (_, i) => `corpus/puzzles/tournament/taai2011-questions.txt#${3 * i + 1}`);
    const { puzzles, errors } = loadCorpus(many);
    expect([puzzles.length, errors]).toEqual([100, []]);
    expect(puzzles.map((p) => p.meta.source)).toEqual(many);
    expect(puzzles.every((p) => goalMatchesClues(p))).toBe(true);
  });

  it('never throws for a folder of bad files', () => {
    const { puzzles, errors } = loadCorpus(['test/fixtures/bad']);
    expect(errors.length).toBeGreaterThanOrEqual(25);
    expect(puzzles.map((p) => p.meta.source)).toEqual([
      'test/fixtures/bad/bundle-bad-member.nonpack#1',
      'test/fixtures/bad/bundle-bad-member.nonpack#3',
      // The good members of tournament files with one bad puzzle still load.
      'test/fixtures/bad/tournament-bad-line.txt#1',
      'test/fixtures/bad/tournament-bad-solution-questions.txt#1',
    ]);
  });

  it('shows paths outside the working directory as absolute', () => {
    const outside = resolve('/', 'tmp');
    expect(displayPath(outside)).toBe(outside);
    expect(displayPath('corpus/./puzzles/../puzzles')).toBe('corpus/puzzles');
  });
});

describe('nonobench convert', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
      execFile(process.execPath, ['dist/harness/cli.js', ...args], { encoding: 'utf8' }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code) : 0, stdout, stderr }),
      ),
    );

  it('converts .non to JSON and back, keeping clues, goal, metadata and id', async () => {
    if (!existsSync('dist/harness/cli.js')) throw new Error('dist/harness/cli.js is missing: build first');
    const src = 'corpus/puzzles/webpbn/1.non';
    const json = join(tmp, 'dancer.json');
    const back = join(tmp, 'dancer.non');
    const first = await run(['convert', src, json]);
    expect([first.code, first.stderr, first.stdout]).toEqual([0, '', `wrote 1 puzzle to ${json}\n`]);
    const second = await run(['convert', json, back]);
    expect(second.code).toBe(0);
    const [a, b, c] = [loadPuzzle(src), loadPuzzle(json), loadPuzzle(back)];
    for (const p of [b, c]) {
      expect(p.id).toBe(a.id);
      expect([p.rows, p.columns, p.goal]).toEqual([a.rows, a.columns, a.goal]);
      expect({ ...p.meta, source: '' }).toEqual({ ...a.meta, source: '' });
    }
    // The round trip reproduces the original file byte for byte.
    expect(readFileSync(back, 'utf8')).toBe(readFileSync(src, 'utf8'));
  });

  it('converts FILE#N, bundles to ==== files or JSON arrays, and writes to stdout with -', async () => {
    const one = join(tmp, 'one.json');
    const packed = join(tmp, 'all.non');
    const [member, bundle, toJson, stdout] = await Promise.all([
      run(['convert', 'corpus/puzzles/tournament/taai2011-questions.txt#7', one]),
      run(['convert', 'test/fixtures/formats/tiny-questions.txt', packed]),
      run(['convert', 'test/fixtures/formats/sample.xml', '-', '--format', 'json']),
      run(['convert', 'test/fixtures/formats/sample.json', '-', '--format', 'non']),
    ]);
    expect(member.code).toBe(0);
    expect(loadPuzzle(one).id).toBe(loadPuzzle('corpus/puzzles/tournament/taai2011-questions.txt#7').id);
    expect(bundle.code).toBe(0);
    expect(readFileSync(packed, 'utf8').split('\n').filter((l) => l === '====')).toHaveLength(2);
    expect(loadPuzzles(packed).map((p) => p.id)).toEqual(loadPuzzles('test/fixtures/formats/tiny-questions.txt').map((p) => p.id));
    expect(JSON.parse(toJson.stdout)).toHaveLength(2);
    expect(stdout.stdout).toMatch(/^catalogue "fixtures"\ntitle "json sample"\nby "J. Son"\n/);
  });

  it('refuses --format that contradicts the extension of OUT (the file would be read back as the other format), and takes one that agrees', async () => {
    const out = join(tmp, 'named.json');
    const clash = await run(['convert', 'test/fixtures/formats/sample.non', out, '--format', 'xml']);
    expect([clash.code, clash.stderr.split('\n')[0]]).toEqual([2, `nonobench: ${out} names the json format by its extension, and --format says xml: name the file for its format, or leave --format out`]);
    expect(existsSync(out)).toBe(false);
    const agree = await run(['convert', 'test/fixtures/formats/sample.non', out, '--format', 'json']);
    expect(agree.code).toBe(0);
    expect(loadPuzzle(out).id).toBe(loadPuzzle('test/fixtures/formats/sample.non').id);
  });
});
