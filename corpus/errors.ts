/**
 * A problem with puzzle input, located at a file and (1-based) line; line 0 means "the file as a whole".
 * The message is always one line: line breaks and other control characters quoted from the input are escaped.
 */
export class PuzzleError extends Error {
  override readonly name = 'PuzzleError';
  readonly detail: string;
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    const oneLine = oneLineText(detail);
    super(`${file}:${line}: ${oneLine}`);
    this.detail = oneLine;
  }
}

/** `text` with control characters written as escapes (`\n`, `\t`, `\u0000`), so it stays on one line. */
export function oneLineText(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** Collects several problems of one file, so a user sees them all at once. */
export class PuzzleErrors extends Error {
  override readonly name = 'PuzzleErrors';
  constructor(readonly problems: PuzzleError[]) {
    super(problems.map((p) => p.message).join('\n'));
  }
}

/** The problems carried by an error thrown while reading puzzles, or null if it is some other failure. */
export function puzzleProblems(err: unknown): PuzzleError[] | null {
  if (err instanceof PuzzleErrors) return err.problems;
  if (err instanceof PuzzleError) return [err];
  return null;
}
