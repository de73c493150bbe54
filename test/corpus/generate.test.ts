import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNon } from '../../corpus/formats/non.js';
import { generateRandomPuzzle, generateSeries, writeSeries } from '../../corpus/generate.js';
import { verifyGrid } from '../../corpus/grid.js';
import { FILLED } from '../../corpus/model.js';
import { createRng, deriveSeed, probabilityThreshold } from '../../corpus/random.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const tmp = tempDirs('generate')();

/** Block lengths of a 0/1 sequence, computed independently of the code under test. */
function blocks(cells: boolean[]): number[] {
  return cells
    .map((c) => (c ? '1' : '0'))
    .join('')
    .split('0')
    .filter((s) => s.length > 0)
    .map((s) => s.length);
}

const BUNDLED = [
  { dir: 'corpus/puzzles/generated/20x20', options: { width: 20, height: 20, density: 0.5, count: 100, seed: 2020 } },
  { dir: 'corpus/puzzles/generated/30x30', options: { width: 30, height: 30, density: 0.5, count: 100, seed: 3030 } },
];

describe('random puzzles', () => {
  it('have clues that are exactly the runs of their goal (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 1, max: 15 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.nat({ max: 0xffffffff }),
        (w, h, density, seed) => {
          const p = generateRandomPuzzle(w, h, density, createRng(seed));
          const filled = (x: number, y: number) => p.goal![y * w + x] === FILLED;
          for (let y = 0; y < h; y++) expect(p.rows[y]).toEqual(blocks(Array.from({ length: w }, (_, x) => filled(x, y))));
          for (let x = 0; x < w; x++) expect(p.columns[x]).toEqual(blocks(Array.from({ length: h }, (_, y) => filled(x, y))));
          expect(verifyGrid(p, p.goal!)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('fill cells with the asked probability', () => {
    const fraction = (density: number) => {
      const rng = createRng(7);
      let filled = 0;
      for (let k = 0; k < 50; k++) filled += generateRandomPuzzle(20, 20, density, rng).goal!.filter((c) => c === FILLED).length;
      return filled / (50 * 400);
    };
    expect(fraction(0)).toBe(0);
    expect(fraction(1)).toBe(1);
    expect(Math.abs(fraction(0.5) - 0.5)).toBeLessThan(0.02);
    expect(Math.abs(fraction(0.2) - 0.2)).toBeLessThan(0.02);
  });

  it('rejects bad sizes, densities and seeds', () => {
    expect(() => generateRandomPuzzle(0, 3, 0.5, createRng(1))).toThrow('width must be a positive integer, got 0');
    expect(() => generateRandomPuzzle(3, 3, 1.5, createRng(1))).toThrow('probability must be between 0 and 1, got 1.5');
    expect(() => createRng(-1)).toThrow('seed must be an integer');
    expect(() => generateSeries({ width: 2, height: 2, density: 0.5, count: 1, seed: 2 ** 32 })).toThrow('seed must be an integer');
  });
});

describe('determinism', () => {
  const options = { width: 12, height: 9, density: 0.4, count: 5, seed: 99 };

  it('gives the same bytes for the same arguments, different ones for another seed', () => {
    const a = generateSeries(options).map((f) => f.text);
    const b = generateSeries(options).map((f) => f.text);
    const c = generateSeries({ ...options, seed: 100 }).map((f) => f.text);
    expect(a).toEqual(b);
    expect(a.every((t, i) => t !== c[i])).toBe(true);
    // Members of a series differ from each other too.
    expect(new Set(a).size).toBe(a.length);
  });

  it('gives puzzle k the same picture whatever the count', () => {
    expect(generateSeries({ ...options, count: 2 }).map((f) => f.text)).toEqual(generateSeries(options).slice(0, 2).map((f) => f.text));
  });

  it('names files zero-padded and titles them with the arguments; files parse back to the same puzzle', () => {
    const files = generateSeries(options);
    expect(files.map((f) => f.name)).toEqual(['001.non', '002.non', '003.non', '004.non', '005.non']);
    expect(generateSeries({ ...options, count: 1000 }).at(-1)!.name).toBe('1000.non');
    expect(files[2]!.puzzle.meta.title).toBe('random 12x9 d0.4 seed 99 #3');
    expect(files[2]!.puzzle.meta.license).toBe('CC0-1.0');
    const back = parseNon(files[2]!.text, files[2]!.name)[0]!;
    expect([back.id, back.goal]).toEqual([files[2]!.puzzle.id, files[2]!.puzzle.goal]);
  });

  it('pins the generator: known draws (a change here changes every generated file)', () => {
    const rng = createRng(1);
    expect([rng.nextUint32(), rng.nextUint32(), rng.nextUint32()]).toEqual([4074205336, 2883810658, 2814033789]);
    expect(createRng(0).nextUint32()).toBe(2156879050);
    expect(deriveSeed(2020, 1)).toBe(1141770198);
    expect(probabilityThreshold(0.5)).toBe(2 ** 31);
    expect(probabilityThreshold(1)).toBe(2 ** 32);
  });

  it('nextBelow stays in range and covers it', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const rng = createRng(seed);
        for (let i = 0; i < 20; i++) {
          const v = rng.nextBelow(n);
          expect(Number.isInteger(v) && v >= 0 && v < n).toBe(true);
        }
      }),
    );
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) seen.add(rng.nextBelow(6));
    expect(seen.size).toBe(6);
  });
});

describe('the bundled generated corpus', () => {
  for (const { dir, options } of BUNDLED) {
    it(`${dir} is exactly what the generator makes (byte for byte)`, () => {
      const files = generateSeries(options);
      expect(readdirSync(dir).sort()).toEqual(files.map((f) => f.name));
      for (const f of files) expect(readFileSync(join(dir, f.name), 'utf8')).toBe(f.text);
    });
  }

  it('writeSeries writes the files it generates', () => {
    const out = join(tmp, 'lib');
    const paths = writeSeries({ width: 4, height: 3, density: 0.5, count: 2, seed: 5 }, out);
    expect(paths).toEqual([join(out, '001.non'), join(out, '002.non')]);
    expect(readFileSync(paths[1]!, 'utf8')).toBe(generateSeries({ width: 4, height: 3, density: 0.5, count: 2, seed: 5 })[1]!.text);
  });

  it('a file that cannot be put in place leaves no temporary file behind', () => {
    const out = join(tmp, 'blocked');
    mkdirSync(join(out, '002.non'), { recursive: true }); // a folder where the second file goes: its rename fails
    expect(() => writeSeries({ width: 3, height: 2, density: 0.5, count: 3, seed: 1 }, out)).toThrow();
    expect(readdirSync(out).sort()).toEqual(['001.non', '002.non']);
  });

  it('the generate command regenerates bundled files byte-identically and rejects bad options', async () => {
    if (!existsSync('dist/harness/cli.js')) throw new Error('dist/harness/cli.js is missing: build first');
    const run = (args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(process.execPath, ['dist/harness/cli.js', ...args], { encoding: 'utf8' }, (err, stdout, stderr) =>
          resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
        ),
      );
    const out = join(tmp, 'cli');
    const [ok, bad] = await Promise.all([
      run(['generate', '--width', '30', '--height', '30', '--density', '0.5', '--count', '3', '--seed', '3030', '--out', out]),
      run(['generate', '--density', '2', '--out', join(tmp, 'never')]),
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`wrote 3 puzzles to ${out}\n`);
    for (const name of ['001.non', '002.non', '003.non'])
      expect(readFileSync(join(out, name), 'utf8')).toBe(readFileSync(`corpus/puzzles/generated/30x30/${name}`, 'utf8'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("error: option '--density <d>' argument '2' is invalid. --density must be a number from 0 to 1\n(see nonobench generate --help)\n");
    expect(existsSync(join(tmp, 'never'))).toBe(false);
  });
});
