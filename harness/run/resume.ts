import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve, sep } from 'node:path';
import { pathSeenFrom } from '../../corpus/load.js';
import { clip, InputError } from '../../corpus/errors.js';
import { CsvValueError, scanCsvFile } from '../results/csv.js';
import { checkRunValues } from '../results/row-values.js';
import { RUN_COLUMNS } from '../results/row.js';
import { canonicalSetting, comparableParams, programContents, programFamily, programFiles } from '../results/setting-value.js';
import { EXTERNAL_STRATEGY } from '../results/row.js';
import type { Task } from './tasks.js';
import type { Puzzle } from '../../corpus/model.js';

/**
 * What `--resume` matches tasks by: the puzzle's id, the task's position in the run's full task
 * list (the CSV's `task`, which shards and interruptions keep), the configuration and the
 * repetition. Not the path as written, which changes with the working directory.
 */
export const resumeKey = (puzzleId: string, task: number | string, config: string, rep: number | string): string =>
  `${puzzleId}\u0000${task}\u0000${config}\u0000${rep}`;

/** The settings a resumed run must share with the rows it appends to, with the option that sets each. */
const SETTINGS = { timeout_s: '--timeout', max_solutions: '--max-solutions', warmup: '--warmup' } as const;
type Setting = keyof typeof SETTINGS;

/** A run CSV being resumed: the tasks it records and the settings they ran with, each with the file line of a row that has it. */
export interface RecordedRun {
  path: string;
  /** resumeKey of each recorded task → the line of its row. */
  tasks: Map<string, number>;
  /** Each setting's values (as compared: see canonicalSetting) → the line of the first row with it. */
  settings: Record<Setting, Map<string, number>>;
  /** Per configuration, its params as recorded → the line of the first row with them. */
  params: Map<string, Map<string, number>>;
  /** Per configuration, each strategy and program it ran (see programChange), with the line of the first row that ran it. */
  programs: Map<string, Map<string, { line: number; strategy: string; file: string }>>;
  /** Each puzzle path as recorded → the first task number it is recorded at, and that row's line. */
  paths: Map<string, { task: number; line: number }>;
  /** Each `definition` value as recorded (`FILE@HASH`, or empty) → the line of the first row with it. */
  definitions: Map<string, number>;
}

/**
 * What differs between the strategy and files a configuration's rows ran (`strategy`,
 * `strategy_file`) and those this run gives it, or undefined: a built-in, plugin or external
 * program swapped for another under the name, or a plugin module or program file whose contents
 * changed since. Either way the rows would measure two programs under one name.
 */
export function programChange(was: { strategy: string; file: string }, now: { strategy: string; file: string }): string | undefined {
  const kind = ({ strategy, file }: { strategy: string; file: string }) =>
    file === '' ? `the built-in strategy ${clip(strategy)}` : strategy === EXTERNAL_STRATEGY ? 'an external program' : `the module of strategy ${clip(strategy)}`;
  if (programFamily(was) !== programFamily(now)) return `ran ${kind(was)}, and this run gives it ${kind(now)}`;
  if (programContents(was.file) === programContents(now.file)) return undefined;
  const before = programFiles(was.file);
  const after = programFiles(now.file);
  const changed = before.map((f, i) => `${clip(basename(f.path))} (then ${f.hash}, now ${after[i]?.hash ?? 'none'})`).filter((_text, i) => before[i]!.hash !== after[i]?.hash);
  return `has changed since its rows ran: ${changed.length > 0 ? changed.join(', ') : `${after.length} files, where its rows ran ${before.length}`}`;
}

/**
 * The tasks and settings a run CSV being resumed already records: none when it does not exist yet
 * or is empty. Anything but a run CSV of these columns is refused before the file is touched, since
 * rows appended to it would sit under a foreign header.
 */
/** A task or repetition number as the run writes it (`007` is task 7), or a recorded task would not be known and would run again. */
const whole = (text: string) => (/^\d+$/.test(text) ? String(Number(text)) : text);

export function recordedTasks(path: string): RecordedRun {
  const empty = (): RecordedRun => ({ path, tasks: new Map(), settings: { timeout_s: new Map(), max_solutions: new Map(), warmup: new Map() }, params: new Map(), programs: new Map(), paths: new Map(), definitions: new Map() });
  let recorded = empty();
  if (!existsSync(path) || statSync(path).size === 0) return recorded;
  // Only what a task's identity and the settings need is kept: a resumed run may already hold a million rows.
  const at = Object.fromEntries(RUN_COLUMNS.map((c, i) => [c, i])) as Record<(typeof RUN_COLUMNS)[number], number>;
  let columns: readonly string[] = [];
  let badValue: InputError | undefined;
  const scan = scanCsvFile(
    path,
    (row) => {
      const f = row.fields;
      // Held to the rules every reader holds them to, so that no run appends to rows none can read
      // (the first value broken is refused after the encoding, the file's own problem).
      try {
        checkRunValues(f, at);
      } catch (err) {
        if (!(err instanceof CsvValueError)) throw err;
        badValue ??= new InputError(path, row.line, `cannot resume: ${err.message}`);
      }
      recorded.tasks.set(resumeKey(f[at.puzzle_id]!, whole(f[at.task]!), f[at.config]!, whole(f[at.rep]!)), row.line);
      if (!recorded.paths.has(f[at.puzzle_path]!)) recorded.paths.set(f[at.puzzle_path]!, { task: Number(f[at.task]), line: row.line });
      if (!recorded.definitions.has(f[at.definition]!)) recorded.definitions.set(f[at.definition]!, row.line);
      for (const setting of Object.keys(SETTINGS) as Setting[]) {
        const values = recorded.settings[setting];
        const value = canonicalSetting(setting, f[at[setting]]!);
        if (!values.has(value)) values.set(value, row.line);
      }
      let programs = recorded.programs.get(f[at.config]!);
      if (!programs) recorded.programs.set(f[at.config]!, (programs = new Map()));
      const program = `${f[at.strategy]!}\u0000${f[at.strategy_file]!}`;
      if (!programs.has(program)) programs.set(program, { line: row.line, strategy: f[at.strategy]!, file: f[at.strategy_file]! });
      // An empty params (a row of an older version) says nothing.
      if (f[at.params] === '') return;
      let params = recorded.params.get(f[at.config]!);
      if (!params) recorded.params.set(f[at.config]!, (params = new Map()));
      const value = comparableParams(f[at.params]!, f[at.strategy]!);
      if (!params.has(value)) params.set(value, row.line);
    },
    {
      context: 'cannot resume: ',
      header: (cols) => {
        columns = cols;
        if (cols.join(',') !== RUN_COLUMNS.join(',')) throw new InputError(path, 1, 'cannot resume: not a run CSV (its header is not the run columns)');
      },
      restart: () => {
        recorded = empty();
        badValue = undefined;
      },
    },
  );
  if (columns.length === 0) throw new InputError(path, 1, 'cannot resume: not a run CSV (its header is not the run columns)');
  // Rows are appended as UTF-8: in a file of another encoding they would read back as garbage.
  if (scan.encoding !== 'utf-8')
    throw new InputError(path, 1, `cannot resume: the file is ${scan.encoding.toUpperCase()}, and the rows appended would be UTF-8 (nonobench merge NEW.csv FILE writes it again as UTF-8)`);
  if (badValue) throw badValue;
  return recorded;
}

/** What a resumed run is about to run with. */
export interface ResumedRun {
  /** The full task list, before any --shard: task numbers are positions in it. */
  tasks: readonly Task[];
  repeat: number;
  timeoutS: number;
  maxSolutions: number;
  warmup: number;
  /** The benchmark definition this run comes from, as it would record it (`FILE@HASH`); '' or undefined without one. */
  definition?: string;
}

/** The hash of a `definition` value (`FILE@HASH`): what says whether two rows ran the same file, whatever its path was called. */
const definitionHash = (text: string) => (text === '' ? '' : (/@([0-9a-f]{12})$/.exec(text)?.[1] ?? text));

/**
 * Refuses (`FILE:LINE: cannot resume: …`) to append to rows run with other settings: a file mixing
 * time limits or solution caps measures two things, and with other puzzles, configurations or
 * `--repeat` the task numbers name other tasks, so recorded ones would run again under new numbers.
 */
export function checkResumable(recorded: RecordedRun, run: ResumedRun): void {
  const refuse = (line: number, why: string) => {
    throw new InputError(recorded.path, line, `cannot resume: ${why} (resume with the settings it was run with, or give another output file)`);
  };
  const current: Record<Setting, number> = { timeout_s: run.timeoutS, max_solutions: run.maxSolutions, warmup: run.warmup };
  for (const setting of Object.keys(SETTINGS) as Setting[])
    for (const [value, line] of recorded.settings[setting])
      if (value !== String(current[setting])) refuse(line, `its rows ran with ${SETTINGS[setting]} ${clip(value)}, and this run has ${SETTINGS[setting]} ${current[setting]}`);

  const configs = new Map<string, { paramsText: string; strategy: string; file: string }>();
  for (const t of run.tasks) if (!configs.has(t.config.name)) configs.set(t.config.name, t.config);
  for (const [config, programs] of recorded.programs) {
    const now = configs.get(config);
    if (now === undefined) continue; // reported below, by its tasks
    for (const was of programs.values()) {
      const change = programChange(was, now);
      if (change) refuse(was.line, `configuration ${clip(config)} ${change}`);
    }
  }
  for (const [config, values] of recorded.params) {
    const now = configs.get(config);
    if (now === undefined) continue; // reported below, by its tasks
    const value = comparableParams(now.paramsText, now.strategy);
    for (const [was, line] of values) if (was !== value) refuse(line, `configuration ${clip(config)} ran with params ${clip(was)}, and this run gives it ${value === '' ? 'none' : clip(value)}`);
  }

  for (const [key, line] of recorded.tasks) {
    const [puzzleId, taskText, config, repText] = key.split('\u0000') as [string, string, string, string];
    const index = Number(taskText);
    const task = /^\d+$/.test(taskText) ? run.tasks[index] : undefined;
    if (task && task.puzzle.id === puzzleId && task.config.name === config && String(task.rep) === repText) continue;
    if (!configs.has(config)) refuse(line, `its configuration ${clip(config)} is not among this run's configurations (${clip([...configs.keys()].join(', '))})`);
    if (Number(repText) > run.repeat) refuse(line, `its rows have repetition ${clip(repText)}, and this run has --repeat ${run.repeat}`);
    const what = (id: string, c: string, r: string) => `puzzle ${clip(id)}, configuration ${clip(c)}, repetition ${clip(r)}`;
    refuse(
      line,
      `its task ${clip(taskText)} is ${what(puzzleId, config, repText)}, ` +
        (task ? `where this run's is ${what(task.puzzle.id, task.config.name, String(task.rep))}` : `and this run has ${run.tasks.length} tasks`) +
        ': its puzzles, configurations or --repeat differ',
    );
  }
  // Rows of two definitions (the file edited since, or none beside one) would sit in one run: compare
  // refuses such a file and bench-check cannot take it as a baseline. Last, so that a difference the
  // checks above name (a setting, a program, the tasks) is said as such. The same file named from
  // another working directory is the same definition (see recordedDefinition).
  const definition = run.definition ?? '';
  for (const [value, line] of recorded.definitions)
    if (definitionHash(value) !== definitionHash(definition))
      refuse(line, `its rows ran ${value === '' ? 'without a definition' : `from the definition ${clip(value)}`}, and this run ${definition === '' ? 'has none' : `from ${clip(definition)}`}`);
}

/**
 * The `definition` value to record: the rows' own when they name the same file (same hash) under
 * another path (a run resumed from another working directory), so that every row names it one way.
 * Called after checkResumable.
 */
export function recordedDefinition(recorded: RecordedRun, definition: string | undefined): string | undefined {
  const [first] = recorded.definitions.keys();
  return first !== undefined && first !== '' ? first : definition;
}

/**
 * Names each puzzle as the rows being resumed name it, where that differs (a run resumed from
 * another working directory sees the same files under other relative paths), so that every row of
 * the file names its puzzle one way: compare, merge and report pair rows by it. A recorded puzzle
 * keeps its recorded path; from it, the directory the file was begun in, and the other puzzles are
 * named as a run there would have named them. Called after checkResumable, which has made sure that
 * each recorded task number names the same puzzle here. The same puzzle read from two files, given
 * in another order, passes that check: for a puzzle another file of the run holds too, a recorded
 * path that does not name its own file is refused (`FILE:LINE: cannot resume: …`), since its rows
 * would then name the wrong file.
 */
export function keepRecordedPaths(recorded: RecordedRun, puzzles: readonly Puzzle[], tasksPerPuzzle: number): void {
  // Puzzles whose content another file of this run holds too: their paths need a closer look.
  const copies = new Map<string, number[]>();
  for (const [k, p] of puzzles.entries()) {
    const same = copies.get(p.id);
    if (same) same.push(k);
    else copies.set(p.id, [k]);
  }
  const files = new PuzzleFiles(puzzles);
  const kept = new Map<number, { path: string; task: number; line: number }>();
  let begunIn: string | undefined;
  for (const [path, { task, line }] of recorded.paths) {
    const k = Math.floor(task / tasksPerPuzzle);
    const puzzle = puzzles[k];
    if (!puzzle || kept.has(k) || !Number.isInteger(task)) continue;
    kept.set(k, { path, task, line });
    if (copies.get(puzzle.id)!.length > 1) continue; // which file it names is the question: it cannot tell where the run was begun
    const here = resolve(puzzle.meta.source ?? '');
    if (begunIn === undefined && path !== puzzle.meta.source && !isAbsolute(path) && here.endsWith(`${sep}${path.split('/').join(sep)}`))
      begunIn = here.slice(0, here.length - path.length - 1) || sep;
  }
  for (const [k, { path, task, line }] of kept) {
    const same = copies.get(puzzles[k]!.id)!;
    const source = puzzles[k]!.meta.source;
    if (same.length < 2 || source === undefined || namesOnly(path, k, same, files, begunIn)) continue;
    throw new InputError(
      recorded.path,
      line,
      `cannot resume: its task ${task} is ${clip(path)}, where this run's is ${clip(source)}, which holds the same puzzle: resume with the paths in the order they were run, from the folder the file was begun in`,
    );
  }
  puzzles.forEach((puzzle, k) => {
    const path = kept.get(k)?.path ?? (begunIn !== undefined && puzzle.meta.source !== undefined ? pathSeenFrom(puzzle.meta.source, begunIn) : undefined);
    if (path !== undefined) puzzle.meta.source = path;
  });
}

/** Each puzzle's file as an absolute path, and the puzzles of each such path, worked out once. */
class PuzzleFiles {
  readonly of: string[];
  readonly ids: string[];
  private readonly puzzlesOf = new Map<string, number[]>();

  constructor(puzzles: readonly Puzzle[]) {
    this.of = puzzles.map((p) => resolve(p.meta.source ?? ''));
    this.ids = puzzles.map((p) => p.id);
    for (const [k, file] of this.of.entries()) {
      const list = this.puzzlesOf.get(file);
      if (list) list.push(k);
      else this.puzzlesOf.set(file, [k]);
    }
  }

  /** The puzzles read from `file` (an absolute path). */
  at(file: string): readonly number[] {
    return this.puzzlesOf.get(file) ?? [];
  }
}

/**
 * Whether a recorded path names puzzle k's file and none of its copies': seen from here or from the
 * folder the file was begun in (exactly), else as the end of one file's path alone.
 */
function namesOnly(path: string, k: number, copies: readonly number[], files: PuzzleFiles, begunIn: string | undefined): boolean {
  const named = new Set([...files.at(resolve(path)), ...(begunIn !== undefined ? files.at(resolve(begunIn, path)) : [])]);
  const exact = [...named].filter((j) => files.ids[j] === files.ids[k]);
  if (exact.length > 0) return exact.length === 1 && exact[0] === k;
  if (isAbsolute(path) || path.split('/').includes('..')) return false;
  const tail = `${sep}${path.split('/').join(sep)}`;
  const ending = copies.filter((j) => files.of[j]!.endsWith(tail));
  return ending.length === 1 && ending[0] === k;
}
