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
    for (const s of PASSED_ON) process.on(s, passOn);
    const forget = () => {
      for (const s of PASSED_ON) process.off(s, passOn);
    };
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
