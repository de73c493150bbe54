import { totalmem } from 'node:os';
import { Piscina } from 'piscina';
import { thrownMessage } from '../io/thrown.js';
import { workerFile } from '../io/worker-file.js';
import { isModuleSpecifier } from '../../solvers/strategies/registry.js';
import type { TaskOutcome, WorkerReply } from '../results/outcome.js';
import { USAGE_MIB, USAGE_REPORTS } from './task-usage.js';
import type { WorkerTask } from './worker.js';

/** How one task ended, seen from the parent. */
export type { TaskOutcome };

export interface PoolOptions {
  workers: number;
  /** Old-generation heap limit of each worker thread, in MiB. */
  memoryMb: number;
  /** The worker module (an absolute path); default the strategy-running worker. */
  filename?: string;
}

/** Extra time a strategy gets past its soft limit before its thread is terminated. */
export function hardLimitMs(timeoutMs: number): number {
  return timeoutMs + Math.max(1000, timeoutMs * 0.25);
}

/** The longest delay a Node timer takes (about 24.8 days); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** When a task's thread is terminated: the hard limit of each of its solves (warm-up ones too), or never. */
export function taskLimitMs(timeoutMs: number, warmup: number): number {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return Infinity;
  const limit = hardLimitMs(timeoutMs) * (1 + warmup);
  return limit > MAX_TIMER_MS ? Infinity : limit;
}

const isOutOfMemory = (err: { code?: string; message?: string }) =>
  err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory limit|heap out of memory/i.test(err.message ?? '');


interface InFlight {
  abort: AbortController;
  start: number;
  reason?: 'timeout' | 'memory';
  /** Stopped as the task holding the most by its own report (not as a silent suspect). */
  heaviest?: boolean;
  usage: Int32Array;
  /** The report count last seen, and when it last changed. */
  seenReports: number;
  reportedAt: number;
}

/**
 * The process's resident memory allowed before the watchdog steps in: what the parent used at
 * start plus, per worker, its heap limit with headroom for the young generation and code.
 */
export function rssBudget(baseRss: number, options: PoolOptions): number {
  // Never past most of the machine's memory, or the kernel's OOM killer would end the whole run first.
  return Math.min(baseRss + options.workers * (options.memoryMb * 1.5 + 128) * 1024 * 1024, totalmem() * 0.85);
}

/** A task whose thread has not reported its memory for this long (it does not poll) is a suspect. */
const SILENT_MS = 250;
/** After stopping a task, memory takes a while to fall: no one else is stopped meanwhile. */
const SETTLE_MS = 1000;

/**
 * The task to stop when the process is over its memory budget, or none: the task holding the most
 * memory by its thread's own report, when that is more than a worker's share; else the longest-
 * running task whose thread has stopped reporting (code that never polls, so cannot say); else no
 * one, since the memory is then no running task's. A well-behaved task beside a hog, or one that
 * starts right after a hog was stopped, is never the one.
 */
export function memoryCulprit<T extends Pick<InFlight, 'start' | 'reason' | 'usage' | 'reportedAt'>>(tasks: Iterable<T>, shareMib: number, now: number): T | undefined {
  let heaviest: T | undefined;
  let silent: T | undefined;
  for (const t of tasks) {
    if (t.reason) continue;
    const mib = t.usage[USAGE_MIB]!;
    if (mib > shareMib && (!heaviest || mib > heaviest.usage[USAGE_MIB]!)) heaviest = t;
    if (now - Math.max(t.start, t.reportedAt) > SILENT_MS && (!silent || t.start < silent.start)) silent = t;
  }
  return heaviest ?? silent;
}

/**
 * Worker threads with hard per-task limits. Callers keep at most `workers` tasks in flight, so
 * every task starts at once and its clock starts with it. Built-in strategies share one set of
 * threads; each plugin module gets threads of its own, so that a plugin that changes the global
 * environment (replaces a built-in class, say) never touches another strategy's solves.
 *
 * Memory has two guards: V8's heap limit per thread (`resourceLimits`) stops JavaScript objects;
 * typed arrays live outside that heap, so each worker reports what its task holds and stops a task
 * over its limit itself, and a watchdog samples the process's resident memory and, past the
 * budget, stops the task that holds the memory (see memoryCulprit) as `memory`.
 */
export class SolverPool {
  private readonly shared: Piscina<WorkerTask, WorkerReply>;
  private readonly isolated = new Map<string, Piscina<WorkerTask, WorkerReply>>();
  private readonly inFlight = new Set<InFlight>();
  private readonly watchdog: NodeJS.Timeout;
  private settleUntil = 0;

  constructor(readonly options: PoolOptions) {
    this.shared = this.threads(options.workers);
    const budget = rssBudget(process.memoryUsage.rss(), options);
    this.watchdog = setInterval(() => this.checkMemory(budget), 200);
    this.watchdog.unref();
  }

  private threads(minThreads: number): Piscina<WorkerTask, WorkerReply> {
    const piscina = new Piscina<WorkerTask, WorkerReply>({
      // A CommonJS entry that import()s the worker module: see worker-entry.cts for why.
      filename: workerFile('run/worker-entry.cjs'),
      workerData: { module: this.options.filename ?? workerFile() },
      minThreads,
      maxThreads: this.options.workers,
      idleTimeout: 60_000,
      // Task times are measured inside the worker; piscina's own histograms would cost a record per task.
      recordTiming: false,
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
    });
    // A replacement worker that fails on its own has no task to reject; the task that caused it already did.
    piscina.on('error', () => {});
    return piscina;
  }

  /** The threads a task runs on: a plugin module's own, else the shared ones. */
  private threadsFor(spec: string): Piscina<WorkerTask, WorkerReply> {
    if (!isModuleSpecifier(spec)) return this.shared;
    let threads = this.isolated.get(spec);
    if (!threads) this.isolated.set(spec, (threads = this.threads(0)));
    return threads;
  }

  private checkMemory(budget: number): void {
    const now = performance.now();
    for (const t of this.inFlight) {
      const reports = t.usage[USAGE_REPORTS]!;
      if (reports !== t.seenReports) {
        t.seenReports = reports;
        t.reportedAt = now;
      }
    }
    if (this.inFlight.size === 0 || now < this.settleUntil || process.memoryUsage.rss() <= budget) return;
    const culprit = memoryCulprit(this.inFlight, this.options.memoryMb / 2, now);
    if (!culprit) return;
    culprit.reason = 'memory';
    culprit.heaviest = culprit.usage[USAGE_MIB]! > this.options.memoryMb / 2;
    culprit.abort.abort();
    this.settleUntil = now + SETTLE_MS;
  }

  async run(task: WorkerTask): Promise<TaskOutcome> {
    const usage = new Int32Array(new SharedArrayBuffer(8));
    const flight: InFlight = { abort: new AbortController(), start: performance.now(), usage, seenReports: 0, reportedAt: 0 };
    this.inFlight.add(flight);
    const limit = taskLimitMs(task.timeoutMs, task.warmup);
    const timer = Number.isFinite(limit)
      ? setTimeout(() => {
          flight.reason ??= 'timeout';
          flight.abort.abort();
        }, limit)
      : undefined;
    try {
      const reply = await this.threadsFor(task.strategySpec).run({ ...task, usage: usage.buffer as SharedArrayBuffer }, { signal: flight.abort.signal });
      return { kind: 'done', reply };
    } catch (err) {
      // Assume no shape: the worker rejects with Errors, but piscina's own failures may be anything.
      const e = (err ?? {}) as { name?: string; code?: string; message?: string };
      if (flight.reason === 'memory')
        return {
          kind: 'memory',
          message: flight.heaviest
            ? `stopped by the memory watchdog: the process went over its memory budget, and this task held the most (${usage[USAGE_MIB]} MiB reported)`
            : 'stopped by the memory watchdog: the process went over its memory budget while this task did not report what it held (it does not poll its cancellation check), so it is the suspect, not a proven holder',
        };
      if (flight.reason === 'timeout') return { kind: 'killed', elapsedMs: performance.now() - flight.start };
      if (isOutOfMemory(e)) return { kind: 'memory', message: e.message ?? 'out of memory' };
      return { kind: 'error', message: thrownMessage(err) };
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(flight);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.watchdog);
    await Promise.all([this.shared, ...this.isolated.values()].map((p) => p.destroy()));
  }
}
