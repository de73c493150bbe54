import { clip, oneLineText } from '../../corpus/errors.js';

/** The longest message kept of what was thrown: a strategy may throw megabytes, each copy of which lands in a row. */
const MAX_MESSAGE_CHARS = 2000;

/**
 * One line for anything code can throw: an Error's message, else what the value was (`threw null`),
 * at most MAX_MESSAGE_CHARS long. Never throws itself, whatever the value's getters or toString do.
 */
export function thrownMessage(thrown: unknown): string {
  try {
    return clip(oneLine(describe(thrown)), MAX_MESSAGE_CHARS);
  } catch {
    return 'threw a value that cannot be read (its message or its conversion to text threw)';
  }
}

function describe(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === 'string') return thrown;
  if (typeof thrown === 'object' && thrown !== null) {
    // An error of another realm or an error-like object (a DOMException): its own message.
    const { message, name } = thrown as { message?: unknown; name?: unknown };
    if (typeof message === 'string' && message !== '') return message;
    if (typeof name === 'string' && name !== '' && typeof message === 'string') return name;
  }
  let shown: string | undefined;
  try {
    // Plain objects say more as JSON; null, undefined, symbols and cyclic objects fall back to String().
    shown = typeof thrown === 'object' && thrown !== null ? JSON.stringify(thrown) : undefined;
  } catch {}
  return `threw ${shown ?? String(thrown)}`;
}

/**
 * A bad option value found inside a command (not by commander): the CLI adds the pointer to the
 * help of `command` when given (an argument meant for another command, as `ab` checks `run`'s), else
 * of the running command.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/**
 * Work that failed for a reason other than the user's input (a full disk, a build that broke, a
 * strategy's solve that a command stops on, as `bench` does): exit 1, not 2.
 */
export class Failure extends Error {}

/**
 * A whole output whose bytes could not be written (a full disk): one line naming the file, and a
 * failure (exit 1) as for a run whose CSV could no longer be written, not bad input. The file was
 * left as it was (see writeOutputFile and merge).
 */
export class OutputWriteError extends Failure {
  constructor(file: string, cause: unknown) {
    super(`cannot write ${oneLineText(file)} (${thrownMessage(cause)})`);
  }
}

/**
 * Line breaks and runs of blanks become one space; the control characters left (a terminal escape, C1
 * controls) are escaped as oneLineText does, so the line cannot drive a terminal either.
 */
export const oneLine = (s: string) => oneLineText(s.replace(/\s+/g, ' ').trim());

/**
 * What every command's exit code means: 0 all went well; 1 a solve failed or was wrong (an `error` or
 * `wrong` row, a strategy that threw, a grid or model that fails the clues, a regression); 2 bad input
 * or usage; 130 interrupted (Ctrl-C).
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_INTERRUPTED = 130;

/** A promise that never settles: what interrupted work waits on while its process ends. */
export const NEVER = new Promise<never>(() => {});

/** How long `stop` (closing worker threads) gets after a signal before the signal itself ends the process. */
const STOP_MS = 1000;

/**
 * Exits with `code` once `stop` is done. process.exit waits for every worker thread, and one blocked
 * in a system call (a plugin's readFileSync of a pipe no one writes) would keep it waiting for ever:
 * so `stop` closes the threads first, and past STOP_MS the signal's own default action ends the
 * process (which a shell shows as the same code).
 */
export function exitAfterStop(signal: NodeJS.Signals, code: number, stop?: () => unknown): void {
  setTimeout(() => {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  }, STOP_MS);
  void Promise.resolve()
    .then(stop)
    .catch(() => {})
    .finally(() => process.exit(code));
}

/**
 * Until the returned function is called, Ctrl-C (SIGINT) writes `message` (when given) on stderr, runs
 * `stop` (which closes the command's worker threads, if it has any), and exits with EXIT_INTERRUPTED.
 * Only for work that leaves the event loop free (worker threads, awaited steps): during synchronous
 * work no handler can run, and Ctrl-C must keep its default effect.
 */
export function exitOnInterrupt(message?: () => string, stop?: () => unknown): () => void {
  const handler = () => {
    // A progress bar may have hidden the cursor: show it again.
    if (process.stderr.isTTY) process.stderr.write('\x1b[?25h');
    if (message) process.stderr.write(`\n${message()}\n`);
    exitAfterStop('SIGINT', EXIT_INTERRUPTED, stop);
  };
  process.once('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}
