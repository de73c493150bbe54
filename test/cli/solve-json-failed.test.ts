import { describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const DANCER = 'corpus/puzzles/webpbn/1.non';
requireBuiltCli();

/** A failed solve is a row of `run` (error or timeout, no counters): with --json it is one JSON object too, still exit 1. */
describe('solve --json of a solve that gave no usable result', () => {
  const cases: [string, string[], string][] = [
    ['a strategy that throws', ['-s', 'test/fixtures/harness/throws.mjs'], 'error'],
    ['a strategy that throws, without a time limit', ['-s', 'test/fixtures/harness/throws.mjs', '--timeout', '0'], 'error'],
    ['a result of the wrong shape', ['-s', 'test/fixtures/harness-robustness/bad-metrics.mjs', '--param', 'mode=negative'], 'error'],
    ['a strategy stopped at the hard limit', ['-s', 'test/fixtures/harness/loop-forever.mjs', '--timeout', '0.2'], 'timeout'],
  ];
  for (const [what, args, status] of cases)
    it(`${what}: one JSON object with status ${status}`, () => {
      const { code, out, err } = runCli('solve', DANCER, ...args, '--json');
      expect(code).toBe(1);
      expect(err).not.toBe(''); // the one line on stderr stays
      const r = JSON.parse(out);
      expect(r).toMatchObject({ puzzle: '53aee5ae407d', status, deadEnds: null, decisions: null, maxDepth: null, solutionsFound: null });
      expect(typeof r.error).toBe('string');
    });
});
