import { spawn } from 'node:child_process';

/**
 * A program ab waits on (a build step, a round's `run`), in a process group of its own so that
 * the terminal's Ctrl-C reaches ab alone: ab passes each signal on to the whole group once, and
 * knows afterwards that the program stopped because it was asked to, not because it crashed.
 */

export interface ChildEnd {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last lines of its stderr, joined by ` | `. */
  stderrTail: string;
  /** The signal ab passed on to it while it ran (SIGINT, SIGTERM or SIGHUP), if any. */
  stoppedBy: NodeJS.Signals | null;
}

const PASSED_ON: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** How each child running now is told of a signal. */
const running = new Set<(signal: NodeJS.Signals) => void>();
let listening = false;

/**
 * The one listener, set by the first child for the rest of the process: a signal while children run
 * goes on to them; one between two children ends ab as the signal's default action would. It stays
 * between children rather than coming and going with each: a handler runs between turns of the
 * event loop, so a signal that comes as ab starts a child is handled once the child has started and
 * reaches it, where with no listener it would end ab at once and leave the child's group running.
 */
function onStopSignal(signal: NodeJS.Signals): void {
  if (running.size > 0) {
    for (const passOn of running) passOn(signal);
    return;
  }
  for (const s of PASSED_ON) process.off(s, onStopSignal);
  process.kill(process.pid, signal);
}

export function runChild(command: string, args: readonly string[], cwd: string, keepStdout = false): Promise<ChildEnd> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', keepStdout ? 'pipe' : 'ignore', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    let stoppedBy: NodeJS.Signals | null = null;
    const passOn = (signal: NodeJS.Signals) => {
      if (stoppedBy) return;
      stoppedBy = signal;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    if (!listening) {
      listening = true;
      for (const s of PASSED_ON) process.on(s, onStopSignal);
    }
    running.add(passOn);
    const forget = () => running.delete(passOn);
    child.on('error', (e) => {
      forget();
      fail(new Error(`${command}: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      forget();
      const stderrTail = Buffer.concat(err).toString('utf8').trim().split('\n').slice(-3).join(' | ');
      done({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderrTail, stoppedBy });
    });
  });
}

/** Thrown when ab passed a signal on to what it was waiting for: the command was interrupted, not failed. */
export class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
  }
  /** The shell's exit code for the signal: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP. */
  get exitCode(): number {
    return this.signal === 'SIGTERM' ? 143 : this.signal === 'SIGHUP' ? 129 : 130;
  }
}
