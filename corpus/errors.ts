/**
 * A problem with an input file (a puzzle, a grid, a SAT model, a run CSV), located at the file and a
 * (1-based) line; line 0 means "the file as a whole".
 * The message is always one line: control characters in the file's name and in the input it quotes are
 * escaped (oneLineText), so a name holding a line break or a terminal escape cannot split or forge a line.
 * `file` keeps the name as it is, to open it again.
 */
export class InputError extends Error {
  override readonly name = 'InputError';
  readonly detail: string;
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    const oneLine = oneLineText(detail);
    const message = `${oneLineText(file)}:${line}: ${oneLine}`;
    // No stack trace: it would only show the reader's code, and a file of a million bad puzzles makes
    // a million of these, where capturing stacks costs most of the time and memory. (Only `super`,
    // which cannot throw, runs without one.)
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.detail = oneLine;
  }
}

const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * `text` with control characters written as escapes, so it stays on one line and cannot drive a terminal:
 * `\t`, `\n` and `\r` by name, the other C0 controls, DEL and the C1 controls (U+0080–U+009F, such as the
 * terminal escape U+009B) as `\xHH`, the Unicode line and paragraph separators as `\u2028` and `\u2029`,
 * and the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which would
 * show the rest of the line reversed, as `\u202e` and so on.
 */
export function oneLineText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return NAMED_ESCAPES[c] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`);
  });
}

/** Longest piece of input text quoted in a message. */
export const MAX_QUOTED = 80;

/** Input text to quote in a message, cut with an ellipsis to `max` characters: one 200 KB clue line must not make a 200 KB message. */
export function clip(text: string, max = MAX_QUOTED): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Do not leave half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Most problems reported for one file: a badly damaged file must not flood the output. */
export const MAX_FILE_PROBLEMS = 10;

/** The line that stands for `count` problems not reported one by one. */
export const moreProblems = (file: string, count: number) =>
  new InputError(file, 0, `… and ${count} more problem${count === 1 ? '' : 's'}`);

/**
 * Collects several problems of one file, so a user sees them all at once: at most MAX_FILE_PROBLEMS
 * of them, and `more` counts the rest (see ProblemLog).
 */
export class InputErrors extends Error {
  override readonly name = 'InputErrors';
  constructor(
    readonly problems: InputError[],
    readonly more = 0,
  ) {
    const lines = problems.map((p) => p.message);
    if (more > 0 && problems.length) lines.push(moreProblems(problems[0]!.file, more).message);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0; // as InputError
    super(lines.join('\n'));
    Error.stackTraceLimit = limit;
  }
}

/**
 * The problems of one file as they are found: the first MAX_FILE_PROBLEMS are kept, the rest only
 * counted, so a file of millions of bad lines costs a count, not a million messages.
 */
export class ProblemLog {
  readonly kept: InputError[] = [];
  more = 0;
  get full(): boolean {
    return this.kept.length >= MAX_FILE_PROBLEMS;
  }
  get empty(): boolean {
    return this.kept.length === 0 && this.more === 0;
  }
  /** Records a problem; its InputError is only made when it is kept. */
  add(file: string, line: number, detail: string): void {
    if (this.full) this.more++;
    else this.kept.push(new InputError(file, line, detail));
  }
  push(problem: InputError): void {
    if (this.full) this.more++;
    else this.kept.push(problem);
  }
  /** Records the problems an InputError or InputErrors carries; false (nothing recorded) for any other error. */
  absorb(err: unknown): boolean {
    if (err instanceof InputError) this.push(err);
    else if (err instanceof InputErrors) {
      for (const p of err.problems) this.push(p);
      this.more += err.more;
    } else return false;
    return true;
  }
  /** The problems as one error, to throw. */
  error(): InputErrors {
    return new InputErrors(this.kept, this.more);
  }
}

/** The problems carried by an error thrown while reading input files, or null if it is some other failure. */
export function inputProblems(err: unknown): InputError[] | null {
  if (err instanceof InputErrors) return err.more > 0 && err.problems.length ? [...err.problems, moreProblems(err.problems[0]!.file, err.more)] : err.problems;
  if (err instanceof InputError) return [err];
  return null;
}

const UNREADABLE: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
  EMFILE: 'too many open files',
  ELOOP: 'its links go round in a loop',
  ENOTDIR: 'a folder in its path is a file',
  ENAMETOOLONG: 'its name is too long',
};

/** Why a file system call failed, in words (the error code when it is not a common one). */
export function unreadableReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code ?? '';
  return Object.hasOwn(UNREADABLE, code) ? UNREADABLE[code]! : code || 'unknown error';
}

/** The one-line error for an input file that cannot be read. */
export const cannotRead = (file: string, err: unknown) => new InputError(file, 0, `cannot read the file (${unreadableReason(err)})`);

/**
 * Runs `build`, which allocates for a puzzle of `width` × `height` cells: V8's refusal of an array
 * that long (a size raised with --max-size) becomes one line at the puzzle's file, not a message
 * naming no file.
 */
export function withinMemory<T>(file: string, width: number, height: number, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new InputError(file, 0, `its ${width}x${height} grid is more than memory holds (${err.message})`);
  }
}
