import { describe, expect, it } from 'vitest';
import { median, RunSummary } from '../../harness/results/summary.js';

describe('run summary', () => {
  it('counts statuses, median and total time and dead ends per strategy, in the given order', () => {
    const s = new RunSummary(['enumeration', 'backtrack']);
    s.add('backtrack', 'unique', 4, 2);
    s.add('backtrack', 'timeout', '', '');
    s.add('enumeration', 'stuck', 10, 0);
    s.add('backtrack', 'multiple', 2, 5);
    s.add('mine', 'error', '', '');
    const rows = s.strategies();
    expect(rows.map((r) => r.strategy)).toEqual(['enumeration', 'backtrack', 'mine']);
    expect(rows[1]).toEqual({ strategy: 'backtrack', tasks: 3, statuses: { unique: 1, timeout: 1, multiple: 1 }, medianMs: 3, totalMs: 6, deadEnds: 7 });
    expect(s.count('timeout')).toBe(1);
    const table = s.format().split('\n');
    expect(table[0]).toMatch(/^strategy\s+tasks\s+unique\s+multiple\s+stuck\s+timeout\s+error\s+median ms\s+total s\s+dead ends$/);
    expect(table.slice(2).map((l) => l.split(/\s+/)[0])).toEqual(['enumeration', 'backtrack', 'mine']);
  });

  it('median of odd, even and empty lists', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
