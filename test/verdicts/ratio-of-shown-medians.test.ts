import { describe, expect, it } from 'vitest';
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../../harness/compare/compare.js';
import { formatComparison } from '../../harness/compare/format.js';
import type { RunRecord } from '../../harness/results/row.js';

/** One pair's rows: a time per repetition. */
const rows = (times: number[]): RunRecord[] =>
  times.map((t, r) => ({ puzzle_id: 'id0', puzzle_path: 'p0.non', strategy: 'sat', rep: String(r + 1), status: 'unique', verified: 'true', time_ms: t.toFixed(3), dead_ends: '0', decisions: '0', line_solves: '7' }) as RunRecord);

describe('a pair of 5 repetitions a side', () => {
  it('reports the ratio of the two medians it shows, as it does their difference', () => {
    const base = [11.177, 9.673, 9.505, 12.278, 15.754];
    const next = [13.632, 16.096, 13.864, 13.545, 13.833];
    const r = compareRuns({ file: 'a.csv', columns: [], records: rows(base) }, { file: 'b.csv', columns: [], records: rows(next) }, DEFAULT_COMPARE_OPTIONS);
    const p = r.pairs[0]!;
    expect(p.base.medianMs).toBe(11.177);
    expect(p.next.medianMs).toBe(13.833);
    expect(p.time!.diffMs).toBeCloseTo(13.833 - 11.177, 9);
    expect(p.time!.ratio).toBeCloseTo(13.833 / 11.177, 9); // 1.238; the medians of the 4 fastest give 1.317
    const json = JSON.parse(formatComparison(r, 'json'));
    expect(json.pairs[0].time.ratio).toBeCloseTo(json.pairs[0].new.median_ms / json.pairs[0].base.median_ms, 9);
  });
});
