import { spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../corpus/paths.js';

/**
 * The harness's side of the reaper (`reaper.ts`): started at the first external solver call, one per
 * harness process, and told of every call's process group as it starts and ends, so that the
 * solvers are killed even when the harness dies without running its exit handler (SIGKILL).
 */

/** The reaper's program as tsc compiles it (the CLI's bundle does not hold it). */
const REAPER = join(PACKAGE_ROOT, 'dist', 'harness', 'external', 'reaper.js');
/** The longest the first call waits for the reaper to start, on a machine too busy to start it sooner. */
const READY_WAIT_MS = 2000;

/** The reaper's standard input; null when there is none (not Linux, or it could not start). */
let reaperInput: Socket | null = null;
let ready: Promise<void> | undefined;

/**
 * Starts the reaper, once, and resolves when it is ready (its start-up takes tens of ms of CPU,
 * which the first solver's clock is not to share); never rejects.
 */
export function reaperReady(): Promise<void> {
  ready ??= new Promise((done) => {
    // Only Linux's /proc lets it check that a group is still the task's before killing it.
    if (process.platform !== 'linux') return done();
    try {
      // Detached: a session of its own, so that Ctrl-C or a kill of the harness's group does not
      // end it first. In `/`, it holds no folder. Its IPC channel, closed once it listens, only
      // says it is ready: after that its input alone is open.
      const child = spawn(process.execPath, [REAPER], { detached: true, stdio: ['pipe', 'ignore', 'ignore', 'ipc'], cwd: '/' });
      const input = child.stdin as Socket;
      // A reaper that died early: the calls run on without it (with the exit handler alone).
      input.on('error', () => {});
      // The harness exits when it is done; the reaper then sees its input end.
      input.unref();
      child.unref();
      reaperInput = input;
      const timer = setTimeout(() => {
        if (child.connected) child.disconnect();
      }, READY_WAIT_MS);
      child.once('disconnect', () => {
        clearTimeout(timer);
        done();
      });
      child.once('error', () => {
        clearTimeout(timer);
        done();
      });
    } catch {
      // No process could be started (EAGAIN).
      done();
    }
  });
  return ready;
}

/** Tells the reaper that a call's group started: what to kill and remove should the harness die. */
export function reaperWatch(pgid: number, token: string, dirs: string[]): void {
  reaperInput?.write(`${JSON.stringify({ pgid, token, dirs })}\n`);
}

/** Tells the reaper that a call's group ended (killed and its folders removed by the harness). */
export function reaperForget(pgid: number): void {
  reaperInput?.write(`${JSON.stringify({ pgid })}\n`);
}
