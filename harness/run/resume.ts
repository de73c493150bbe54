import { existsSync, statSync } from 'node:fs';
import { InputError } from '../../corpus/errors.js';
import type { Puzzle } from '../../corpus/model.js';
import { readCsvInput } from '../results/csv.js';
import { RUN_COLUMNS, type RunRecord } from '../results/row.js';

/**
 * What `--resume` matches tasks by: the puzzle's id, which of the run's puzzles with that id it is
 * (0 for the first: the same clues may sit in two files), the configuration and the repetition. Not
 * the path as written, which changes with the working directory.
 */
export const resumeKey = (puzzleId: string, occurrence: number, config: string, rep: number | string): string =>
  `${puzzleId}\u0000${occurrence}\u0000${config}\u0000${rep}`;

/** Each puzzle's occurrence among the puzzles with its id, in the run's order. */
export function occurrences(puzzles: readonly Puzzle[]): Map<Puzzle, number> {
  const seen = new Map<string, number>();
  const out = new Map<Puzzle, number>();
  for (const p of puzzles) {
    const k = seen.get(p.id) ?? 0;
    out.set(p, k);
    seen.set(p.id, k + 1);
  }
  return out;
}

/**
 * Keys of the tasks a run CSV being resumed already records: none when it does not exist yet or is
 * empty. A puzzle's occurrence is read back from the order of its paths' first tasks. Anything but
 * a run CSV of these columns is refused before the file is touched, since rows appended to it
 * would sit under a foreign header.
 */
export function recordedTasks(path: string): Set<string> {
  if (!existsSync(path) || statSync(path).size === 0) return new Set();
  // Only the columns a task's identity needs are kept: a resumed run may already hold a million rows.
  const parsed = readCsvInput(path, 'cannot resume: ', ['task', 'puzzle_id', 'puzzle_path', 'config', 'rep']);
  if (parsed.columns.join(',') !== RUN_COLUMNS.join(','))
    throw new InputError(path, 1, 'cannot resume: not a run CSV (its header is not the run columns)');
  const records = parsed.records as RunRecord[];
  // The first task of each (id, path): the paths of one id, in task order, give the occurrences.
  const firstTask = new Map<string, Map<string, number>>();
  records.forEach((r, i) => {
    const paths = firstTask.get(r.puzzle_id!) ?? firstTask.set(r.puzzle_id!, new Map()).get(r.puzzle_id!)!;
    const task = Number(r.task);
    const at = Number.isInteger(task) ? task : i;
    paths.set(r.puzzle_path!, Math.min(paths.get(r.puzzle_path!) ?? Infinity, at));
  });
  const occurrence = new Map<string, Map<string, number>>();
  for (const [id, paths] of firstTask) occurrence.set(id, new Map([...paths].sort((a, b) => a[1] - b[1]).map(([p], k) => [p, k])));
  return new Set(records.map((r) => resumeKey(r.puzzle_id!, occurrence.get(r.puzzle_id!)!.get(r.puzzle_path!)!, r.config!, r.rep!)));
}
