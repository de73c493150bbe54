import { inputProblems } from '../../corpus/errors.js';

/** The problems a call throws, as [file, line, message] triples; fails when it does not throw. */
export function problemsOf(fn: () => unknown): [string, number, string][] {
  try {
    fn();
  } catch (err) {
    const problems = inputProblems(err);
    if (!problems) throw err;
    return problems.map((p) => [p.file, p.line, p.detail]);
  }
  throw new Error('expected a InputError');
}
