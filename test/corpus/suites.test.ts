import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus, splitMemberPath } from '../../corpus/load.js';
import { BUNDLED_CORPUS, PACKAGE_ROOT } from '../../corpus/paths.js';
import { suiteNames, suitePaths } from '../../corpus/suites.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();

/** Each suite loaded once: the full corpus takes seconds to load. */
const loaded = new Map<string, ReturnType<typeof loadCorpus>>();
const loadSuite = (name: string) => loaded.get(name) ?? loaded.set(name, loadCorpus(suitePaths(name))).get(name)!;

describe('suites', () => {
  it('are quick, standard and full, each naming only puzzles that exist and load without a problem', () => {
    expect(suiteNames()).toEqual(['full', 'quick', 'standard']);
    for (const name of suiteNames()) {
      const paths = suitePaths(name);
      for (const p of paths) expect(existsSync(splitMemberPath(p).file), p).toBe(true);
      const { puzzles, errors } = loadSuite(name);
      expect(errors.map((e) => e.message)).toEqual([]);
      expect(puzzles.length).toBeGreaterThan(0);
    }
  });

  it('quick and standard sample every bundled folder (quick all but the survey puzzles); full is everything bundled', () => {
    const all = readdirSync(BUNDLED_CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    const full = new Set(loadSuite('full').puzzles.map((p) => p.id));
    expect(suitePaths('full').map((p) => resolve(PACKAGE_ROOT, p))).toEqual([BUNDLED_CORPUS]);
    for (const name of ['quick', 'standard']) {
      const puzzles = loadSuite(name).puzzles;
      const reached = new Set(puzzles.map((p) => relative(join(PACKAGE_ROOT, 'corpus', 'puzzles'), p.meta.source!).split('/')[0]));
      // Every strategy but auto spends the whole limit on survey/ puzzles: no quick look.
      const folders = name === 'quick' ? all.filter((f) => f !== 'survey') : all;
      expect([...reached].sort(), name).toEqual([...folders].sort());
      for (const p of puzzles) expect(full.has(p.id)).toBe(true);
    }
  });

  it('an unknown suite names the known ones', () => {
    expect(() => suitePaths('nope')).toThrow('unknown suite "nope" (known: full, quick, standard)');
    expect(() => suitePaths('../package')).toThrow('unknown suite');
  });

  it('run and classify take --suite (an unknown one is a usage error), added to the paths given', () => {
    for (const command of ['run', 'classify']) {
      const r = runCli(command, '--suite', 'nope', '--quiet');
      expect(r.code).toBe(2);
      expect(r.err).toBe(`nonobench: unknown suite "nope" (known: full, quick, standard)\n(see nonobench ${command} --help)\n`);
    }
    // overlap keeps this quick: what is checked is which puzzles are run.
    const out = join(tempDirs('suites')(), 'run.csv');
    const r = runCli('run', 'test/fixtures/harness/tiny.json#1', '--suite', 'quick', '-s', 'overlap', '--workers', '1', '--out', out, '--quiet');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`${loadSuite('quick').puzzles.length + 1} tasks recorded`));
  });
});
