import { noteInputFile } from './input-files.js';
import { checkHeap, CorpusTooLarge } from './heap-guard.js';
import { withDefaultStopSignals } from './stop-signals.js';
import { appendAll } from './append.js';
import { constants } from 'node:buffer';
import { existsSync, openSync, readdirSync, readFileSync, readSync, closeSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { cannotRead, clip, InputError, InputErrors, moreProblems, ProblemLog, unreadableReason } from './errors.js';
import { detectFormat, readRawPuzzles, UNKNOWN_FORMAT_MESSAGE } from './formats/index.js';
import { looksLikeTournament } from './formats/tournament.js';
import { decodeText } from './formats/text.js';
import type { Puzzle } from './model.js';
import { buildPuzzle, type LoadOptions, type MemberRange, type RawPuzzle, type WantedPuzzles } from './validate.js';

export type { LoadOptions, MemberRange } from './validate.js';
export { MAX_FILE_PROBLEMS } from './errors.js';

/**
 * Loading puzzles from paths: files in any supported format, `FILE#N` members of bundles, and
 * directories (recursive, sorted). Every puzzle's `meta.source` is its path as the user would type it
 * (relative to the working directory when under it), with `#N` for members of multi-puzzle files.
 */

/**
 * A path as shown to users: relative to the working directory when under it, with `/` separators. Control
 * characters are kept, since it is also a puzzle's `meta.source`, recorded in CSVs and opened again: a line
 * printed for a person escapes them (InputError does it for `FILE:LINE: message`; elsewhere oneLineText).
 */
export const displayPath = (path: string): string => pathSeenFrom(path, process.cwd());

/** A path as displayPath shows it to a command working in `from`. */
export function pathSeenFrom(path: string, from: string): string {
  const abs = resolve(path);
  const rel = relative(from, abs);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return abs;
  return rel.split(sep).join('/');
}

/**
 * Splits `FILE#N` or `FILE#A-B` into the file and its members (a real file whose name has `#` wins).
 * The `s` flag: a file name may hold a line break or U+2028, which `.` does not match without it.
 */
export function splitMemberPath(path: string): { file: string; members?: MemberRange } {
  const m = /^(.*)#(\d+)(?:-(\d+))?$/s.exec(path);
  if (!m || existsSync(path)) return { file: path };
  return { file: m[1]!, members: { first: Number(m[2]), last: Number(m[3] ?? m[2]), text: m[3] === undefined ? m[2]! : `${m[2]}-${m[3]}` } };
}

/** `#N` or `#A-B` as the user wrote it: a huge number would print rounded, as 1e+23. */
const rangeText = ({ first, last, text }: MemberRange) => `#${clip(text ?? (first === last ? `${first}` : `${first}-${last}`))}`;

/** A solutions file by its name: `solutions.txt` or `solution.txt` after a non-letter (`taai-solutions.txt`, not `resolution.txt`). */
const SOLUTIONS_NAME = /(?:^|[^a-z])solutions?\.txt$/i;

/** Whether a file is a tournament solutions file: by its name, or as the companion of a sibling `…questions.txt` (companionSolutions). */
function isSolutionsName(file: string): boolean {
  const name = basename(file);
  if (SOLUTIONS_NAME.test(name)) return true;
  const questions = name.replace(/solutions(\.txt)$/i, (_m, ext: string) => `questions${ext}`);
  return questions !== name && existsSync(join(dirname(file), questions));
}

/** Notes that may start with `$` (a price, a shell prompt): never taken for tournament `.txt` files in a folder walk. */
const NOTE_NAMES = /^(readme|license|licence|copying|notice|authors|changelog)(\.|$)/i;

/**
 * Whether a directory walk picks a file up: every file with a puzzle extension; a `.txt` only when it is
 * a tournament file (its first non-blank character is `$`) and neither a solutions file nor a note.
 */
function isPuzzleFile(path: string): boolean {
  const name = basename(path);
  if (name.startsWith('.')) return false;
  const ext = extname(name).toLowerCase();
  if (ext === '.non' || ext === '.nonpack' || ext === '.xml' || ext === '.json') return true;
  // Companion solutions are read with their questions file, not as puzzles.
  if (ext !== '.txt' || isSolutionsName(path) || NOTE_NAMES.test(name)) return false;
  try {
    const head = readHead(path);
    if (head === undefined) return false; // binary data
    // Blank lines to the end of the head: undecided, so loading decides, as it does for the file named alone.
    if (head.text.trim() === '') return head.cut;
    return looksLikeTournament(head.text);
  } catch {
    return true; // unreadable: let loading report it rather than skip it silently
  }
}

/** Bytes read to tell a tournament `.txt` by its first non-blank character, past any leading blank lines. */
const HEAD_BYTES = 4096;

/** The text of a file's first HEAD_BYTES bytes, and whether the file goes on; undefined for binary data. */
function readHead(path: string): { text: string; cut: boolean } | undefined {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = decodeText(buf.subarray(0, Math.min(n, HEAD_BYTES)));
    return text === undefined ? undefined : { text, cut: n > HEAD_BYTES };
  } finally {
    closeSync(fd);
  }
}

/** Plain code-unit order, the same on every machine (localeCompare is not). */
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** True when directory `outer` is `inner` or one of its ancestors (real paths). */
const holds = (outer: string, inner: string) => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);

/**
 * The puzzle files under a directory, recursively, sorted by their path (plain code-unit order). Each real
 * directory is read once, so symbolic-link cycles end, and a link to a folder that holds it is not
 * followed (it would lead out of the named folder); only regular files are taken (a pipe named `x.non`
 * would block reading forever). Unreadable subdirectories are added to `problems` when given, else skipped.
 */
export function listPuzzleFiles(dir: string, problems?: InputError[]): string[] {
  const found: string[] = [];
  // Directories by device and inode, not by real path: finding a real path looks at every component
  // of the path, so a walk down deeply nested folders would take time growing with the cube of the depth.
  const visited = new Set<string>();
  const walk = (d: string) => {
    let entries: Dirent[];
    let real: string | undefined;
    try {
      const { dev, ino } = statSync(d);
      if (visited.has(`${dev}:${ino}`)) return;
      visited.add(`${dev}:${ino}`);
      // Sorted, so which of two links to one directory is walked does not depend on the file system.
      entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => byCodeUnits(a.name, b.name));
    } catch (err) {
      problems?.push(new InputError(displayPath(d), 0, `cannot read the directory (${unreadableReason(err)})`));
      return;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = join(d, entry.name);
      let kind: { isDirectory(): boolean; isFile(): boolean } = entry;
      if (entry.isSymbolicLink()) {
        try {
          kind = statSync(full);
          // A link to a folder that holds it leads out of the named folder (under /proc, each
          // process's `root` is the whole file system): not followed.
          if (kind.isDirectory() && holds(realpathSync(full), (real ??= realpathSync(d)))) continue;
        } catch {
          continue; // a dangling link holds no puzzle
        }
      }
      if (kind.isDirectory()) walk(full);
      else if (kind.isFile() && isPuzzleFile(full)) found.push(full);
    }
  };
  walk(dir);
  const key = (p: string) => relative(dir, p).split(sep).join('/');
  return found.map((p) => ({ p, k: key(p) })).sort((a, b) => byCodeUnits(a.k, b.k)).map((e) => e.p);
}

/**
 * The longest text V8 holds in one string: decoding a larger file aborts the whole process (Node's
 * TextDecoder cannot return the string), so it is refused before it is read.
 */
const MAX_TEXT_BYTES = constants.MAX_STRING_LENGTH;

const tooLarge = (shown: string, bytes: number) =>
  new InputError(shown, 0, `cannot read the file (${bytes.toLocaleString('en-US')} bytes, more than the ${MAX_TEXT_BYTES.toLocaleString('en-US')} a text file may have)`);

/**
 * A file's text, decoded by decodeText. A named pipe is read (as `<(command)` gives one); a socket
 * or device is refused, as reading it may never end. Folder walks skip pipes too (listPuzzleFiles).
 * Every other text input (grids, models, definitions) is read this way too.
 */
export function readText(path: string, shown = path): string {
  let bytes: Buffer;
  try {
    const stats = statSync(path);
    if (!stats.isFile() && !stats.isDirectory() && !stats.isFIFO()) throw new InputError(shown, 0, 'cannot read the file (not a regular file or pipe)');
    // An input even when refused unread: no output may take its place.
    noteInputFile(stats);
    if (stats.size > MAX_TEXT_BYTES) throw tooLarge(shown, stats.size);
    bytes = stats.isFIFO() ? withDefaultStopSignals(() => readFileSync(path)) : readFileSync(path);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw cannotRead(shown, err);
  }
  if (bytes.length > MAX_TEXT_BYTES) throw tooLarge(shown, bytes.length);
  const text = decodeText(bytes);
  if (text === undefined) throw new InputError(shown, 1, 'not a text file (binary data)');
  return text;
}

/** The companion solutions of a tournament questions file: `…questions.txt` → `…solutions.txt`, if present. */
export function companionSolutions(file: string): string | undefined {
  const name = basename(file);
  if (!/questions\.txt$/i.test(name)) return undefined;
  const candidate = join(dirname(file), name.replace(/questions(\.txt)$/i, (_m, ext: string) => `solutions${ext}`));
  return existsSync(candidate) ? candidate : undefined;
}

interface FileResult {
  puzzles: Puzzle[];
  errors: InputError[];
}

/**
 * The puzzles already loaded, by real path and member number: a file reached twice (named twice, through
 * a link, or both by itself and inside a named folder) is loaded once, where it is first met.
 */
type LoadedSet = Set<string>;

function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * Loads one file (or some members of it); problems are returned, never thrown: at most
 * MAX_FILE_PROBLEMS of them, then one line counting the rest (ProblemLog).
 */
function loadFile(file: string, members: readonly MemberRange[] | undefined, options: LoadOptions, loaded: LoadedSet = new Set()): FileResult {
  const shown = displayPath(file);
  const real = realPathOf(file);
  const log = new ProblemLog();
  const puzzles: Puzzle[] = [];
  const collect = (err: unknown) => {
    if (err instanceof CorpusTooLarge) throw err; // the whole load ends: no later file would fit either
    // Anything else is a bug or an exhausted resource: still one line for this file, and the load goes on.
    if (log.absorb(err)) return;
    const message = err instanceof Error ? err.message : String(err);
    log.add(shown, 0, `cannot read the file (unexpected error: ${clip(message)})`);
  };
  try {
    const text = readText(file, shown);
    const format = detectFormat(shown, text);
    if (!format) throw new InputError(shown, 0, UNKNOWN_FORMAT_MESSAGE);
    let solutions: { text: string; file: string } | undefined;
    if (format === 'tournament') {
      if (isSolutionsName(file) && options.solutions === undefined)
        throw new InputError(shown, 0, 'this is a solutions file: load its questions file, which attaches it');
      const solutionsFile = options.solutions ?? companionSolutions(file);
      if (solutionsFile !== undefined) {
        const solutionsShown = displayPath(solutionsFile);
        solutions = { text: readText(solutionsFile, solutionsShown), file: solutionsShown };
      }
    }
    // Only the puzzles to build keep their problems: those asked for and not loaded before.
    const holds = (r: MemberRange, k: number) => k >= r.first - 1 && k <= r.last - 1;
    const asked = (k: number) => members === undefined || members.some((r) => holds(r, k));
    const skipped = (k: number) => !asked(k) || loaded.has(`${real}#${k + 1}`);
    const read = (wanted?: WantedPuzzles) => readRawPuzzles(text, shown, { format, ...(solutions ? { solutions } : {}), ...(wanted ? { wanted } : {}) });
    const raws = read((k) => !skipped(k));
    if (raws.length === 0) throw new InputError(shown, 0, 'no puzzle found');
    const many = raws.length > 1;
    const missing = (members ?? []).filter((r) => r.first < 1 || r.last > raws.length || r.first > r.last);
    if (missing.length > 0) {
      // A file none of whose puzzles reads is better described by what is wrong with it (read again,
      // keeping the problems of every member this time).
      const problems = problemsIfNoneBuilds(read(), options);
      if (problems) throw problems.error();
      for (const r of missing) {
        const what = r.first > r.last ? `puzzles ${rangeText(r)} (an empty range)` : `puzzle ${rangeText(r)}`;
        log.add(shown, 0, `no ${what}: the file holds ${raws.length} puzzle${many ? 's' : ''}`);
      }
    }
    // The members of the other ranges asked for in the same read load as they would each on its own.
    const inMissing = (k: number) => missing.some((r) => holds(r, k));
    raws.forEach((raw, k) => {
      if (skipped(k) || inMissing(k)) return;
      loaded.add(`${real}#${k + 1}`);
      try {
        checkHeap(shown, raw.line);
        const puzzle = buildPuzzle(raw, options);
        puzzle.meta.source = many ? `${shown}#${k + 1}` : shown;
        puzzles.push(puzzle);
      } catch (err) {
        collect(err);
      }
    });
  } catch (err) {
    collect(err);
  }
  const errors = log.kept;
  if (log.more > 0) errors.push(moreProblems(shown, log.more));
  return { puzzles, errors };
}

/** The problems of a file's puzzles when none of them builds; undefined as soon as one does. */
function problemsIfNoneBuilds(raws: RawPuzzle[], options: LoadOptions): ProblemLog | undefined {
  const log = new ProblemLog();
  for (const raw of raws) {
    try {
      buildPuzzle(raw, options);
      return undefined;
    } catch (err) {
      if (!log.absorb(err)) throw err;
    }
  }
  return log;
}

/**
 * Loads a path (file, `FILE#N` or directory; with `more`, further members of the same file, in
 * order after it); problems are returned, never thrown.
 */
function loadPath(path: string, options: LoadOptions, loaded: LoadedSet = new Set(), more: MemberRange[] = []): FileResult {
  const { file, members } = splitMemberPath(path);
  // Shown as it is: displayPath would make it ".", a folder that exists.
  if (file === '') return { puzzles: [], errors: [new InputError(JSON.stringify(path), 0, 'an empty path names no puzzle file')] };
  let isDirectory = false;
  try {
    isDirectory = members === undefined && statSync(file).isDirectory();
  } catch {
    // Missing paths are reported by loadFile as unreadable.
  }
  if (!isDirectory) return loadFile(file, members ? [members, ...more] : undefined, options, loaded);
  const result: FileResult = { puzzles: [], errors: [] };
  const files = listPuzzleFiles(file, result.errors);
  if (files.length === 0 && result.errors.length === 0)
    return { puzzles: [], errors: [new InputError(displayPath(file), 0, 'no puzzle files in this directory')] };
  for (const f of files) {
    const r = loadFile(f, undefined, options, loaded);
    appendAll(result.puzzles, r.puzzles);
    appendAll(result.errors, r.errors);
  }
  return result;
}

const raise = (errors: InputError[]): never => {
  throw errors.length === 1 ? errors[0]! : new InputErrors(errors);
};

/**
 * Every puzzle of a path: a file in any supported format (detected), a bundle, `FILE#N` (1-based
 * member) or a directory (recursive, sorted by path). Throws InputError / InputErrors on any problem.
 */
export function loadPuzzles(path: string, options: LoadOptions = {}): Puzzle[] {
  const { puzzles, errors } = loadPath(path, options);
  if (errors.length) raise(errors);
  return puzzles;
}

/** Exactly one puzzle: a single-puzzle file or `FILE#N`; anything else throws. */
export function loadPuzzle(path: string, options: LoadOptions = {}): Puzzle {
  const puzzles = loadPuzzles(path, options);
  if (puzzles.length !== 1) {
    const { file, members } = splitMemberPath(path);
    // FILE#N names a member of a file, not of a folder: a folder's puzzle is named by its file.
    const folder = members === undefined && statSync(file, { throwIfNoEntry: false })?.isDirectory();
    const which = folder ? 'name one of its files (FILE#N for a member of a bundle)' : 'name one as FILE#N';
    throw new InputError(displayPath(file), 0, `holds ${puzzles.length} puzzles; ${which}`);
  }
  return puzzles[0]!;
}

/**
 * The puzzles of several paths, in order, each puzzle once (see LoadedSet). Never throws for bad input:
 * each bad file's (or bad bundle member's) problems are collected in `errors` and loading goes on with the rest.
 */
export function loadCorpus(paths: string[], options: LoadOptions = {}): { puzzles: Puzzle[]; errors: InputError[] } {
  const puzzles: Puzzle[] = [];
  const errors: InputError[] = [];
  const loaded: LoadedSet = new Set();
  for (let i = 0; i < paths.length; ) {
    // Members of one file named one after another, in order (a suite's `FILE#1 FILE#2 …`), are read
    // in one pass over the file, not one each: the tournament file holds a thousand puzzles.
    const first = splitMemberPath(paths[i]!);
    const more: MemberRange[] = [];
    let last = first.members;
    for (let j = i + 1; last && first.file !== '' && j < paths.length; j++) {
      const next = splitMemberPath(paths[j]!);
      if (next.file !== first.file || !next.members || next.members.first <= last.last) break;
      more.push((last = next.members));
    }
    const r = loadPath(paths[i]!, options, loaded, more);
    appendAll(puzzles, r.puzzles);
    appendAll(errors, r.errors);
    i += 1 + more.length;
  }
  return { puzzles, errors };
}
