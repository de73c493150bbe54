import { existsSync, statSync } from 'node:fs';
import { InputError } from '../../corpus/errors.js';
import { readCsvInput } from '../results/csv.js';
import { RUN_COLUMNS, type RunRecord } from '../results/row.js';

/**
 * What `--resume` matches tasks by: the puzzle's id, the task's position in the run's full task
 * list (the CSV's `task`, which shards and interruptions keep), the configuration and the
 * repetition. Not the path as written, which changes with the working directory.
 */
export const resumeKey = (puzzleId: string, task: number | string, config: string, rep: number | string): string =>
  `${puzzleId}\u0000${task}\u0000${config}\u0000${rep}`;

/**
 * Keys of the tasks a run CSV being resumed already records: none when it does not exist yet or is
 * empty. Anything but a run CSV of these columns is refused before the file is touched, since rows
 * appended to it would sit under a foreign header.
 */
export function recordedTasks(path: string): Set<string> {
  if (!existsSync(path) || statSync(path).size === 0) return new Set();
  // Only the columns a task's identity needs are kept: a resumed run may already hold a million rows.
  const parsed = readCsvInput(path, 'cannot resume: ', ['task', 'puzzle_id', 'config', 'rep']);
  if (parsed.columns.join(',') !== RUN_COLUMNS.join(','))
    throw new InputError(path, 1, 'cannot resume: not a run CSV (its header is not the run columns)');
  // Rows are appended as UTF-8: in a file of another encoding they would read back as garbage.
  if (parsed.encoding !== 'utf-8')
    throw new InputError(path, 1, `cannot resume: the file is ${parsed.encoding.toUpperCase()}, and the rows appended would be UTF-8 (nonobench merge NEW.csv FILE writes it again as UTF-8)`);
  return new Set((parsed.records as RunRecord[]).map((r) => resumeKey(r.puzzle_id!, r.task!, r.config!, r.rep!)));
}
