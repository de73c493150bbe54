/** A problem with puzzle input, located at a file and (1-based) line; line 0 means "the file as a whole". */
export class PuzzleError extends Error {
  override readonly name = 'PuzzleError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }
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
