import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, constants as fsConstants, mkdtempSync, openSync, readFileSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitTimer } from '../io/timers.js';
import { MEMORY_POLL_MS, overCapKb, POLL_SPACING } from './memory-watch.js';
import { reaperForget, reaperReady, reaperWatch } from './reaper-link.js';
import { readRegularFile } from './scratch-files.js';
import { kill, removeDir, signalTask, TASK_TOKEN_VARIABLE } from './task-signals.js';

/**
 * One external solver call with hard limits. child_process is used directly rather than a process
 * library: the solver runs in a process group of its own, so that a fork it leaves behind is
 * stopped with it, and no pipe a grandchild still holds keeps the run waiting.
 *
 * - CPU time and peak memory come from the kernel's accounting of the finished child (wait4's
 *   rusage, as GNU time reports it), when GNU time is installed; otherwise they are not measured.
 * - Memory is capped per process with RLIMIT_DATA (the shell's `ulimit -d`), which covers the heap
 *   and private mappings but not address space merely reserved, so runtimes that reserve much
 *   (the JVM, Node, Go) still start.
 * - At the soft limit the solver's processes get SIGTERM, at the hard limit SIGKILL; when the
 *   solver exits, whatever it left in its group, or marked with its task token, is killed.
 */

export interface ProcessLimits {
  /** SIGTERM after this many ms (Infinity: never). */
  softMs: number;
  /** SIGKILL after this many ms (Infinity: never). */
  hardMs: number;
  /** RLIMIT_DATA of the solver, MiB. */
  memoryMb: number;
}

export interface ProcessRun {
  code: number | null;
  /** The signal that ended the solver, when one did. */
  signal: NodeJS.Signals | null;
  /** What it printed, as bytes: decoding tens of MiB is left to whoever reads them (see read-answer.ts). */
  stdout: Buffer;
  /** The end of what it wrote on stderr. */
  stderrTail: string;
  wallMs: number;
  cpuMs: number | '';
  peakRssKb: number | '';
  /** Why the harness ended it, when it did. */
  stopped?: 'timeout' | 'output' | 'memory';
  /** With `stopped: 'memory'`: what its largest process held, shared memory included, in KiB. */
  heldKb?: number;
  /** It could not be started at all. */
  startError?: string;
}

/** The most a solver may print on stdout before it is stopped. */
export const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_BYTES = 4096;
/** How long the pipes may stay open after the solver exited (a grandchild outside its group may hold them). */
const PIPE_GRACE_MS = 1000;
const USAGE_PREFIX = 'nonobench-usage';
/** GNU time's report is one line; a larger file is none of its making. */
const USAGE_MAX_BYTES = 4096;

let gnuTime: string | null | undefined;
let envSignals: boolean | undefined;

/**
 * Whether `env` can ignore and restore signals (GNU coreutils ≥ 8.31): then GNU time ignores
 * SIGTERM while the solver gets it as usual, so a solver that signals its own process group
 * (`kill 0`) does not take the measurer with it.
 */
function envHandlesSignals(): boolean {
  if (envSignals === undefined) {
    try {
      execFileSync('env', ['--ignore-signal=TERM', '--default-signal=TERM', 'true'], { stdio: 'ignore', timeout: 5000 });
      envSignals = true;
    } catch {
      envSignals = false;
    }
  }
  return envSignals;
}

/** GNU time's path, or null when it is not installed (then CPU time and peak memory are not measured). */
export function gnuTimePath(): string | null {
  if (gnuTime !== undefined) return gnuTime;
  gnuTime = null;
  for (const path of ['/usr/bin/time', '/bin/time', '/usr/local/bin/time']) {
    try {
      const version = execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
      if (/GNU/.test(version)) return (gnuTime = path);
    } catch (err) {
      // GNU time 1.7 prints its version on stderr.
      if (/GNU/.test(String((err as { stderr?: unknown }).stderr ?? ''))) return (gnuTime = path);
    }
  }
  return gnuTime;
}

/**
 * Whether process `pid` has ended and waits to be reaped (Linux /proc): its exit is not seen yet
 * because the harness's thread is busy (reading another solver's output, writing a row).
 */
function hasEnded(pid: number): boolean {
  try {
    const stat = readFileSync(join('/proc', String(pid), 'stat'), 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** How much later than GNU time's record of the exit the harness may see it before that record is taken instead. */
const LATE_EXIT_MS = 50;

/**
 * Every call still running, with its scratch folder: killed and removed if the harness itself exits
 * (Ctrl-C included), or else by the reaper, which is told of them too, when it dies (SIGKILL).
 */
const live = new Map<number, { token: string; dir: string; usageDir: string }>();
let exitHookSet = false;

/** Kills the processes of every external solver still running and removes their scratch folders. */
export function killAllExternal(): void {
  for (const [pgid, { token, dir, usageDir }] of live) {
    kill(-pgid, 'SIGKILL');
    signalTask(pgid, token, -1, 'SIGKILL', [dir]);
    removeDir(dir);
    removeDir(usageDir);
    reaperForget(pgid);
  }
  live.clear();
}

interface Usage {
  cpuMs: number;
  peakRssKb: number;
  /** The signal that ended the solver, as GNU time saw it (its own exit code is then 128 + the number). */
  signal?: NodeJS.Signals;
}

function parseUsage(text: string): Usage | undefined {
  const lines = text.split('\n');
  const [, user, sys, rss] = lines.find((l) => l.startsWith(USAGE_PREFIX))?.split(' ') ?? [];
  const values = [user, sys, rss].map(Number);
  if (values.some((v) => !Number.isFinite(v))) return undefined;
  const usage: Usage = { cpuMs: Math.round((values[0]! + values[1]!) * 1000), peakRssKb: values[2]! };
  const number = Number(/^Command terminated by signal (\d+)/m.exec(text)?.[1]);
  const signal = Object.entries(constants.signals).find(([, n]) => n === number)?.[0];
  if (signal) usage.signal = signal as NodeJS.Signals;
  return usage;
}

/** The words that run `argv` under the memory cap (and GNU time, writing to `usageFile`, when it is installed). */
function wrapped(argv: string[], memoryMb: number, usageFile: string): string[] {
  // Past 2^50 KiB (far more than any machine) the shell's 64-bit arithmetic would wrap to a tiny limit.
  const kib = Math.floor(memoryMb * 1024);
  const limit = kib < 2 ** 50 ? String(kib) : 'unlimited';
  const capped = ['/bin/sh', '-c', 'ulimit -d "$1" 2>/dev/null; shift; exec "$@"', 'sh', limit, ...argv];
  const time = gnuTimePath();
  if (!time) return capped;
  const measured = [time, '-f', `${USAGE_PREFIX} %U %S %M`, '-o', usageFile, '--'];
  return envHandlesSignals() ? ['env', '--ignore-signal=TERM,HUP', ...measured, 'env', '--default-signal=TERM,HUP', ...capped] : [...measured, ...capped];
}

/**
 * Runs one solver call in `dir` (its scratch folder) within `limits`, its standard input read from
 * `stdinFile` when given (a file the kernel feeds it: a large CNF is never held or piped by the
 * harness); never rejects.
 */
export async function runLimited(argv: string[], options: RunOptions): Promise<ProcessRun> {
  // The reaper is started, and ready, before the first solver: that solver's group is then told of
  // at once, and its time does not take in the reaper's start-up.
  await reaperReady();
  return runStarted(argv, options);
}

interface RunOptions {
  dir: string;
  stdinFile?: string;
  env?: Record<string, string>;
  limits: ProcessLimits;
  /** Default MAX_STDOUT_BYTES. */
  maxStdoutBytes?: number;
}

function runStarted(argv: string[], options: RunOptions): Promise<ProcessRun> {
  // (`argv` runs in `dir`; the caller removes it.)
  const { dir, limits } = options;
  const maxStdoutBytes = options.maxStdoutBytes ?? MAX_STDOUT_BYTES;
  const token = randomBytes(8).toString('hex');
  // GNU time's report goes to a folder of the harness's own, not the solver's (a file in its
  // folder, the solver could forge or turn into a pipe).
  const usageDir = mkdtempSync(join(tmpdir(), 'nonobench-usage-'));
  const usageFile = join(usageDir, 'usage');
  const words = wrapped(argv, limits.memoryMb, usageFile);
  const started = performance.now();
  // The wall clock now, as the usage file's mtime is read (both CLOCK_REALTIME): not timeOrigin +
  // started, whose timeOrigin was taken at the harness's start off by milliseconds (14 on a loaded
  // machine) and stays off by any step of the wall clock since, hours into a run.
  const startedWall = Date.now();
  return new Promise((done) => {
    let child: ChildProcess;
    let stdinFd: number | undefined;
    try {
      // No link followed: the file is the harness's, written just before.
      if (options.stdinFile !== undefined) stdinFd = openSync(options.stdinFile, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
      child = spawn(words[0]!, words.slice(1), {
        cwd: dir,
        detached: true,
        env: { ...process.env, ...options.env, [TASK_TOKEN_VARIABLE]: token },
        stdio: [stdinFd ?? 'ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      // Refused before any process exists (E2BIG: arguments and environment too long).
      removeDir(usageDir);
      done({ code: null, signal: null, stdout: Buffer.alloc(0), stderrTail: '', wallMs: 0, cpuMs: '', peakRssKb: '', startError: (err as Error).message });
      return;
    } finally {
      // The child holds its own copy.
      if (stdinFd !== undefined) closeSync(stdinFd);
    }
    const pgid = child.pid;
    // The wrapper (GNU time) is spared until the solver is gone, so that it can report.
    const wrapper = pgid !== undefined && gnuTimePath() ? pgid : -1;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let stopped: ProcessRun['stopped'];
    let heldKb: number | undefined;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let startError: string | undefined;
    const timers: NodeJS.Timeout[] = [];
    let memoryTimer: NodeJS.Timeout | undefined;
    const later = (ms: number, f: () => void) => {
      const timer = limitTimer(ms, f);
      if (timer) timers.push(timer);
    };
    if (pgid !== undefined) {
      live.set(pgid, { token, dir, usageDir });
      reaperWatch(pgid, token, [dir, usageDir]);
      if (!exitHookSet) {
        exitHookSet = true;
        process.on('exit', killAllExternal);
      }
      // A timer that fires late, after the solver ended in time (its exit waits behind other work
      // of the harness's thread), stops nothing: the exit is about to be seen.
      later(limits.softMs, () => {
        if (hasEnded(pgid)) return;
        stopped ??= 'timeout';
        signalTask(pgid, token, wrapper, 'SIGTERM', [dir]);
      });
      later(limits.hardMs, () => {
        if (hasEnded(pgid)) return;
        stopped ??= 'timeout';
        signalTask(pgid, token, wrapper, 'SIGKILL', [dir]);
      });
      // The wrapper too, should it not end once the solver is gone.
      later(limits.hardMs + PIPE_GRACE_MS, () => kill(-pgid, 'SIGKILL'));
      // Shared memory, which RLIMIT_DATA does not limit, is held to the cap by looking (see memory-watch.ts).
      const capKb = limits.memoryMb * 1024;
      if (process.platform === 'linux' && capKb < 2 ** 50) {
        const look = () => {
          if (stopped || exited) return;
          const at = performance.now();
          const held = overCapKb(pgid, capKb);
          if (held > 0) {
            stopped = 'memory';
            heldKb = held;
            signalTask(pgid, token, wrapper, 'SIGKILL', [dir]);
            return;
          }
          memoryTimer = setTimeout(look, Math.max(MEMORY_POLL_MS, POLL_SPACING * (performance.now() - at)));
        };
        memoryTimer = setTimeout(look, MEMORY_POLL_MS);
      }
    }
    child.stdout!.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdoutBytes) {
        if (!stopped && pgid !== undefined) {
          stopped = 'output';
          signalTask(pgid, token, wrapper, 'SIGKILL', [dir]);
        }
        return;
      }
      stdout.push(chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
    });

    let pipesOpen = 2;
    let finished = false;
    let exitedAt: number | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      for (const t of timers) clearTimeout(t);
      clearTimeout(memoryTimer);
      if (pgid !== undefined && live.delete(pgid)) reaperForget(pgid);
      let wallMs = (exitedAt ?? performance.now()) - started;
      let usage: ReturnType<typeof parseUsage>;
      try {
        usage = parseUsage(readRegularFile(usageFile, 'the usage file', USAGE_MAX_BYTES));
        // GNU time writes its report as the solver ends: when the harness saw the exit much later
        // (its thread was busy), the report's time is the exit's.
        const reportedMs = statSync(usageFile).mtimeMs - startedWall;
        if (usage && reportedMs >= 0 && wallMs - reportedMs > LATE_EXIT_MS) wallMs = reportedMs;
      } catch {
        usage = undefined;
      }
      removeDir(usageDir);
      const run: ProcessRun = {
        code: usage?.signal ? null : exited?.code ?? null,
        signal: usage?.signal ?? exited?.signal ?? null,
        stdout: Buffer.concat(stdout),
        stderrTail: stderrTail.toString('utf8'),
        wallMs,
        cpuMs: usage?.cpuMs ?? '',
        peakRssKb: usage?.peakRssKb ?? '',
      };
      if (stopped) run.stopped = stopped;
      if (heldKb !== undefined) run.heldKb = heldKb;
      if (startError !== undefined) run.startError = startError;
      done(run);
    };
    const pipeClosed = () => {
      if (--pipesOpen === 0 && exited) finish();
    };
    child.stdout!.on('close', pipeClosed);
    child.stderr!.on('close', pipeClosed);
    child.on('error', (err) => {
      startError = err.message;
      exited ??= { code: null, signal: null };
      finish();
    });
    child.on('exit', (code, signal) => {
      // The solve ends here: what follows is the harness's cleaning up, not the solver's time.
      exitedAt = performance.now();
      for (const t of timers) clearTimeout(t);
      clearTimeout(memoryTimer);
      exited = { code, signal };
      // What the solver left behind (a forked grandchild, one that left its group) goes with it.
      if (pgid !== undefined) {
        kill(-pgid, 'SIGKILL');
        signalTask(pgid, token, -1, 'SIGKILL', [dir]);
      }
      if (pipesOpen === 0) finish();
      else
        setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          finish();
        }, PIPE_GRACE_MS).unref();
    });
  });
}
