import type { RunCsv } from '../../harness/compare/compare.js';
import type { SideSummary } from '../../harness/compare/judge.js';
import type { CsvRecord } from '../../harness/results/csv.js';

/** One side of a pair, every repetition solved in `times` (ms). */
export const timedSide = (times: number[]): SideSummary => ({
  reps: times.length,
  statuses: { unique: times.length },
  status: 'unique',
  verified: 'true',
  times,
  medianMs: [...times].sort((a, b) => a - b)[times.length >> 1]!,
  counters: { dead_ends: ['0'], decisions: ['0'], line_solves: ['7'] },
});

/**
 * A synthetic run: `puzzles` puzzles × 5 repetitions of one strategy, each time `scale` × the
 * puzzle's own time (`msOf`) with ±5% jitter, stamped with calibrations around `calib` ms.
 */
export function calibratedRun(file: string, o: { scale: number; calib: number; seed: number; puzzles?: number; msOf?: (p: number) => number }): RunCsv {
  const { scale, calib, puzzles = 30, msOf = (p: number) => 10 + p } = o;
  let s = o.seed;
  const rand = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const records: CsvRecord[] = [];
  for (let p = 0; p < puzzles; p++)
    for (let rep = 1; rep <= 5; rep++)
      records.push({
        puzzle_id: `p${p}`,
        puzzle_path: `p${p}.non`,
        strategy: 'backtrack',
        rep: String(rep),
        status: 'unique',
        verified: 'true',
        time_ms: String(msOf(p) * scale * (0.95 + 0.1 * rand())),
        calib_ms: String(calib * (0.97 + 0.06 * rand())),
        dead_ends: '3',
        decisions: '4',
        line_solves: '100',
      });
  return { file, columns: Object.keys(records[0]!), records };
}
