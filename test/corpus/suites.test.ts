import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCorpus, splitMemberPath } from '../../corpus/load.js';
import { BUNDLED_CORPUS, PACKAGE_ROOT } from '../../corpus/paths.js';
import { suiteNames, suitePaths } from '../../corpus/suites.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();

describe('suites', () => {
  it('are quick, standard and full, each naming only puzzles that exist and load without a problem', () => {
    expect(suiteNames()).toEqual(['full', 'quick', 'standard']);
    for (const name of suiteNames()) {
      const paths = suitePaths(name);
      for (const p of paths) expect(existsSync(splitMemberPath(p).file), p).toBe(true);
      const { puzzles, errors } = loadCorpus(paths);
      expect(errors.map((e) => e.message)).toEqual([]);
      expect(puzzles.length).toBeGreaterThan(0);
    }
  });

  it('quick and standard sample every bundled folder; full is everything bundled', () => {
    const folders = readdirSync(BUNDLED_CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    const full = new Set(loadCorpus(suitePaths('full')).puzzles.map((p) => p.id));
    expect(full.size).toBe(new Set(loadCorpus([BUNDLED_CORPUS]).puzzles.map((p) => p.id)).size);
    for (const name of ['quick', 'standard']) {
      const puzzles = loadCorpus(suitePaths(name)).puzzles;
      const reached = new Set(puzzles.map((p) => relative(join(PACKAGE_ROOT, 'corpus', 'puzzles'), p.meta.source!).split('/')[0]));
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
    const out = join(tempDirs('suites')(), 'classify.csv');
    const r = runCli('classify', 'test/fixtures/harness/tiny.json#1', '--suite', 'quick', '--workers', '1', '--out', out, '--quiet');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`${loadCorpus(suitePaths('quick')).puzzles.length + 1} puzzles classified`));
  });
});
