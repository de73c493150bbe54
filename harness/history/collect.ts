import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cannotRead, inputProblems, type InputError } from '../../corpus/errors.js';
import { globFiles } from '../io/glob-files.js';
import { pairKey } from '../compare/pairs.js';
import { loadRunTable, type RunTable } from '../compare/table.js';
import type { RunColumn } from '../results/row.js';

/**
 * Reading the run CSVs of a history: files named, or every `*.csv` under a folder. Each file is
 * read as a compact table (loadRunTable) and folded at once into one cell per (configuration,
 * commit, puzzle) holding that puzzle's repetitions, pooled over every run of the commit; then the
 * table is dropped, so memory grows with the cells, not with the rows.
 */

/** Columns a file needs to be read as a run CSV here (config falls back to strategy). */
export const HISTORY_COLUMNS: readonly RunColumn[] = ['git_commit', 'puzzle_id', 'strategy', 'status', 'time_ms'];

/** Statuses that answer the puzzle: their times are what the history follows. */
export const SOLVED_STATUSES: ReadonlySet<string> = new Set(['unique', 'multiple', 'solved', 'contradiction']);

/** The label of rows recorded outside git (empty git_commit). */
export const NO_COMMIT = '(no commit)';

/** One puzzle's repetitions under one configuration at one commit. */
export interface Cell {
  reps: number;
  solvedReps: number;
  /** Wall and CPU time of each solved repetition with a time (cpu NaN where the row has none). */
  wall: number[];
  cpu: number[];
  /** dead_ends of each repetition that has a count (solves that returned). */
  deadEnds: number[];
}

export interface CommitInfo {
  /** git_commit as recorded (`-dirty` kept), or NO_COMMIT. */
  label: string;
  /** The commit without its `-dirty` suffix. */
  base: string;
  dirty: boolean;
  /** Earliest started_at of its rows ('' when none says). */
  firstStarted: string;
  runs: Set<string>;
}

export interface Collection {
  commits: Map<string, CommitInfo>;
  /** configuration → commit label → puzzle_id → cell. */
  cells: Map<string, Map<string, Map<string, Cell>>>;
  files: number;
  rows: number;
  /**
   * Rows repeating one already read (same run_id, task and pair, as compare's pairKey names it): the
   * same run found twice, as a merged file beside its shards.
   */
  duplicates: number;
  /** By run_id, task number → the code (in pairCodes) of the first pair read under it, to tell duplicates. */
  tasks: Map<string, Map<number, number>>;
  /** (run, task, pair) read under a task number that already named another pair: rare, so kept as texts. */
  otherPairs: Set<string>;
  /** A number per pairKey, so that tasks holds numbers. */
  pairCodes: Map<string, number>;
  /** Where a solved repetition first lacks cpu_ms (`FILE:LINE: …`), or null when every one has it. */
  missingCpu: string | null;
  /** Bad input: each a `FILE:LINE: message`; the command exits 2. */
  problems: InputError[];
  /** CSVs found in a folder that are not run CSVs: skipped with a warning. */
  skipped: string[];
}

export const emptyCollection = (): Collection => ({
  commits: new Map(),
  cells: new Map(),
  files: 0,
  rows: 0,
  duplicates: 0,
  tasks: new Map(),
  otherPairs: new Set(),
  pairCodes: new Map(),
  missingCpu: null,
  problems: [],
  skipped: [],
});

/** Plain code-unit order, the same on every machine. */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The CSVs to read: files as named, folders walked for `*.csv` (any case); each real file once. */
export function listInputs(paths: readonly string[], problems: InputError[]): { file: string; inFolder: boolean }[] {
  const found: { file: string; inFolder: boolean }[] = [];
  const seen = new Set<string>();
  const add = (file: string, inFolder: boolean) => {
    let real = file;
    try {
      real = realpathSync(file);
    } catch {}
    if (seen.has(real)) return;
    seen.add(real);
    found.push({ file, inFolder });
  };
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (err) {
      problems.push(cannotRead(path, err));
      continue;
    }
    if (!isDir) add(path, false);
    else for (const rel of globFiles(['**/*.csv'], { cwd: path, caseSensitiveMatch: false }).sort(byCodeUnits)) add(join(path, rel), true);
  }
  return found;
}

/**
 * Reads one CSV into the collection. A file that is not a run CSV is skipped: with a warning when
 * found in a folder (other CSVs may live there), as bad input when named. A malformed one is bad
 * input (its `FILE:LINE`), and none of its rows are used.
 */
export function readInto(c: Collection, file: string, inFolder: boolean): void {
  let table: RunTable;
  try {
    table = loadRunTable(file, HISTORY_COLUMNS);
  } catch (err) {
    const problems = inputProblems(err);
    if (!problems) throw err;
    for (const p of problems) {
      if (inFolder && p.detail.startsWith('not a run CSV')) c.skipped.push(`${p.message}; skipped`);
      else c.problems.push(p);
    }
    return;
  }
  c.files++;
  fold(c, table);
}

function fold(c: Collection, t: RunTable): void {
  const commit = t.text('git_commit')!;
  const config = t.text('config')!;
  const puzzle = t.text('puzzle_id')!;
  const status = t.text('status')!;
  const wall = t.num('time_ms')!;
  const cpu = t.num('cpu_ms');
  const deadEnds = t.num('dead_ends');
  const started = t.text('started_at');
  const runId = t.text('run_id');
  const task = t.num('task');
  for (let i = 0; i < t.size; i++) {
    const run = runId?.get(i) ?? '';
    if (run !== '' && task && !Number.isNaN(task[i]!) && readBefore(c, run, task[i]!, pairKey(t, i))) {
      c.duplicates++;
      continue;
    }
    c.rows++;
    const label = commit.get(i) || NO_COMMIT;
    let info = c.commits.get(label);
    if (!info) {
      const dirty = label.endsWith('-dirty');
      c.commits.set(label, (info = { label, base: dirty ? label.slice(0, -'-dirty'.length) : label, dirty, firstStarted: '', runs: new Set() }));
    }
    const at = started?.get(i) ?? '';
    if (at !== '' && (info.firstStarted === '' || at < info.firstStarted)) info.firstStarted = at;
    if (run !== '') info.runs.add(run);

    let byCommit = c.cells.get(config.get(i));
    if (!byCommit) c.cells.set(config.get(i), (byCommit = new Map()));
    let byPuzzle = byCommit.get(label);
    if (!byPuzzle) byCommit.set(label, (byPuzzle = new Map()));
    let cell = byPuzzle.get(puzzle.get(i));
    if (!cell) byPuzzle.set(puzzle.get(i), (cell = { reps: 0, solvedReps: 0, wall: [], cpu: [], deadEnds: [] }));
    cell.reps++;
    if (deadEnds && !Number.isNaN(deadEnds[i]!)) cell.deadEnds.push(deadEnds[i]!);
    if (!SOLVED_STATUSES.has(status.get(i))) continue;
    cell.solvedReps++;
    if (Number.isNaN(wall[i]!)) continue;
    const cpuMs = cpu ? cpu[i]! : NaN;
    cell.wall.push(wall[i]!);
    cell.cpu.push(cpuMs);
    if (Number.isNaN(cpuMs) && c.missingCpu === null) c.missingCpu = cpu ? `${t.file}:${t.lines[i]}: a solved row has no cpu_ms` : `${t.file} has no cpu_ms column`;
  }
}

/**
 * Whether a row of this run, task and pair was read before (and marks it read). A task number names
 * one pair in a run, yet a row under it naming another puzzle is that puzzle's, not a repeat: only
 * the same run, task and pair is the same row (as compare's withoutRepeats holds it).
 */
function readBefore(c: Collection, run: string, task: number, pair: string): boolean {
  let code = c.pairCodes.get(pair);
  if (code === undefined) c.pairCodes.set(pair, (code = c.pairCodes.size));
  let done = c.tasks.get(run);
  if (!done) c.tasks.set(run, (done = new Map()));
  const first = done.get(task);
  if (first === undefined) {
    done.set(task, code);
    return false;
  }
  if (first === code) return true;
  const key = `${run}\u0000${task}\u0000${code}`;
  if (c.otherPairs.has(key)) return true;
  c.otherPairs.add(key);
  return false;
}
