import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareFiles } from '../../harness/compare/compare.js';
import { formatComparison, MAX_LISTED } from '../../harness/compare/format.js';
import { mergeCsvs } from '../../harness/results/merge.js';
import { writeBigRun } from '../bench/big-run.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

/**
 * report on a run of 150,000 rows (3000 puzzles × 5 configurations × 10 repetitions): past the
 * size at which it died of "Maximum call stack size exceeded" (Math.max(...reps)), read in chunks
 * into compact columns; merge on a third of it and compare on half, since they keep every
 * record's place in typed arrays whatever the size (half: enough flagged pairs to pass the
 * table's limit). The 1,000,000-row figures are measured
 * with test/bench/big-run.ts (see README).
 */

const tmp = tempDirs('scale');
requireBuiltCli();

const SIZE = { puzzles: 3000, configs: 5, reps: 10 };
const ROWS = SIZE.puzzles * SIZE.configs * SIZE.reps;

describe(`a run of ${ROWS} rows`, () => {
  let dir = '';
  let base = '';
  // A third of the run, for merge.
  const size = { ...SIZE, puzzles: SIZE.puzzles / 3 };
  const rows = ROWS / 3;
  beforeAll(() => {
    dir = tmp();
    base = join(dir, 'base.csv');
    expect(writeBigRun(base, SIZE)).toBe(ROWS);
  });

  it('merge puts its shards back together exactly as the whole run merges', () => {
    const run = join(dir, 'third.csv');
    writeBigRun(run, size);
    const written: number[] = [];
    const shards = [0, 1, 2].map((k) => {
      const file = join(dir, `shard-${k}.csv`);
      written.push(writeBigRun(file, { ...size, shard: [k, 3] }));
      return file;
    });
    expect(written.reduce((a, b) => a + b)).toBe(rows);
    const whole = join(dir, 'whole.csv');
    const pieces = join(dir, 'pieces.csv');
    expect(mergeCsvs(whole, [run])).toEqual({ rows, duplicates: 0 });
    expect(mergeCsvs(pieces, [...shards, shards[1]!])).toEqual({ rows, duplicates: written[1] });
    expect(readFileSync(pieces).equals(readFileSync(whole))).toBe(true);
  });

  it('compare finds the slower configuration and nothing else', () => {
    const half = { ...SIZE, puzzles: SIZE.puzzles / 2 };
    const [before, after] = [join(dir, 'before.csv'), join(dir, 'after.csv')];
    writeBigRun(before, half);
    writeBigRun(after, { ...half, seed: 2, slower: { backtrack: 1.5 } });
    const r = compareFiles(before, after);
    expect(r.counts.pairs).toBe(half.puzzles * half.configs);
    expect(r.base.rows).toBe(ROWS / 2);
    expect(r.counts.statusRegressions).toBe(0);
    const flagged = r.pairs.filter((p) => p.time?.verdict === 'regression');
    expect(flagged.length).toBeGreaterThan(MAX_LISTED);
    expect(new Set(flagged.map((p) => p.strategy))).toEqual(new Set(['backtrack']));
    // The table lists the first MAX_LISTED and says how many more.
    expect(formatComparison(r, 'table')).toContain(`… and ${flagged.length - MAX_LISTED} more, not listed here: --format csv or json lists every pair`);
  });

  it('report writes its page', () => {
    const page = join(dir, 'report.html');
    const cli = runCli('report', base, '--out', page);
    expect([cli.code, cli.err]).toEqual([0, '']);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain(`<dt>rows</dt><dd>${ROWS}</dd>`);
    expect(html).toContain(`<dt>puzzles</dt><dd>${SIZE.puzzles}</dd>`);
  });
});
