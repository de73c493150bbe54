import { Piscina } from 'piscina';
import { thrownMessage } from '../io/thrown.js';
import { workerFile } from '../io/worker-file.js';
import type { TaskOutcome, WorkerReply } from '../results/outcome.js';
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
}

/**
 * The process's resident memory allowed before the watchdog steps in: what the parent used at
 * start plus, per worker, its heap limit with headroom for the young generation and code.
 */
export function rssBudget(baseRss: number, options: PoolOptions): number {
  return baseRss + options.workers * (options.memoryMb * 1.5 + 128) * 1024 * 1024;
}

/**
 * A pool of worker threads with hard per-task limits. Callers keep at most `workers` tasks in
 * flight, so every task starts at once and its clock starts with it.
 *
 * Memory has two guards: V8's heap limit per thread (`resourceLimits`) stops JavaScript objects;
 * typed arrays live outside that heap, so a watchdog also samples the process's resident memory
 * and, past the budget, stops the longest-running task as `memory`.
 */
export class SolverPool {
  private readonly piscina: Piscina<WorkerTask, WorkerReply>;
  private readonly inFlight = new Set<InFlight>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(readonly options: PoolOptions) {
    this.piscina = new Piscina({
      // A CommonJS entry that import()s the worker module: see worker-entry.cts for why.
      filename: workerFile('run/worker-entry.cjs'),
      workerData: { module: options.filename ?? workerFile() },
      minThreads: options.workers,
      maxThreads: options.workers,
      idleTimeout: 60_000,
      // Task times are measured inside the worker; piscina's own histograms would cost a record per task.
      recordTiming: false,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
    });
    // A replacement worker that fails on its own has no task to reject; the task that caused it already did.
    this.piscina.on('error', () => {});
    const budget = rssBudget(process.memoryUsage.rss(), options);
    this.watchdog = setInterval(() => this.checkMemory(budget), 200);
    this.watchdog.unref();
  }

  private checkMemory(budget: number): void {
    if (this.inFlight.size === 0 || process.memoryUsage.rss() <= budget) return;
    let oldest: InFlight | undefined;
    for (const t of this.inFlight) if (!t.reason && (!oldest || t.start < oldest.start)) oldest = t;
    if (!oldest) return;
    oldest.reason = 'memory';
    oldest.abort.abort();
  }

  async run(task: WorkerTask): Promise<TaskOutcome> {
    const flight: InFlight = { abort: new AbortController(), start: performance.now() };
    this.inFlight.add(flight);
    const limit = taskLimitMs(task.timeoutMs, task.warmup);
    const timer = Number.isFinite(limit)
      ? setTimeout(() => {
          flight.reason ??= 'timeout';
          flight.abort.abort();
        }, limit)
      : undefined;
    try {
      const reply = await this.piscina.run(task, { signal: flight.abort.signal });
      return { kind: 'done', reply };
    } catch (err) {
      // Assume no shape: the worker rejects with Errors, but piscina's own failures may be anything.
      const e = (err ?? {}) as { name?: string; code?: string; message?: string };
      if (flight.reason === 'memory')
        return { kind: 'memory', message: 'stopped by the memory watchdog: the process went over its memory budget' };
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
    await this.piscina.destroy();
  }
}
