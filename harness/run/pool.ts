import { totalmem } from 'node:os';
import { serialize } from 'node:v8';
import { Piscina } from 'piscina';
import { thrownMessage } from '../io/thrown.js';
import { workerFile } from '../io/worker-file.js';
import { MAX_TIMER_MS } from '../io/timers.js';
import { isModuleSpecifier } from '../../solvers/strategies/registry.js';
import type { TaskOutcome, WorkerReply } from '../results/outcome.js';
import { USAGE_MIB, USAGE_REPORTS, USAGE_SLOTS, USAGE_WARMUP } from './task-usage.js';
import type { WarmupConfig, WarmupSet, WorkerTask } from './worker.js';
import type { Puzzle } from '../../corpus/model.js';

/** How one task ended, seen from the parent. */
export type { TaskOutcome };

export interface PoolOptions {
  workers: number;
  /** Old-generation heap limit of each worker thread, in MiB. */
  memoryMb: number;
  /** The worker module (an absolute path); default the strategy-running worker. */
  filename?: string;
  /** Told once for each thread group whose warm-up failed: its threads measure cold from then on. */
  onColdThreads?: (line: string) => void;
  /** Whether the built-in strategies' threads start at once (default) or at their first task: a run of plugins and external solvers alone never needs them. */
  sharedAtStart?: boolean;
}

/** Extra time a strategy gets past its soft limit before its thread is terminated. */
export function hardLimitMs(timeoutMs: number): number {
  return timeoutMs + Math.max(1000, timeoutMs * 0.25);
}

/**
 * When a task's thread is terminated, counted from the end of its thread's warm-up (see SolverPool.run):
 * the hard limit of each of its solves (its own warm-up ones too), or never.
 */
export function taskLimitMs(timeoutMs: number, warmup: number): number {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return Infinity;
  const limit = hardLimitMs(timeoutMs) * (1 + warmup);
  return limit > MAX_TIMER_MS ? Infinity : limit;
}

/** What each configuration's warm-up solves may take in one round of a thread's warm-up (see warmUp in worker.ts). */
export const WARMUP_CONFIG_MS = 300;
/**
 * What a thread's warm-up may take beyond its solves before it is stopped: the thread's start-up
 * (module loading, calibration) counts from the task's submission, and takes seconds on a busy
 * machine. The limit only has to catch a strategy that ignores its deadline.
 */
const WARMUP_START_MS = 2000;
/** The most puzzles a warm-up solves: enough to show every kind in a run, few enough to stay short. */
export const WARMUP_PUZZLES = 64;

/** What runOnce returns when the task failed during its thread's warm-up, not in its own solve. */
const WARMUP_FAILED = Symbol('warm-up failed');

/** Which threads a strategy runs on: a plugin module's own (keyed by its spec), else the shared ones (''). */
const threadGroup = (spec: string) => (isModuleSpecifier(spec) ? spec : '');

/** A typed array this long is no bug of a length but more than memory holds (a gibibyte of bytes at least). */
const HUGE_LENGTH = 2 ** 30;

/**
 * The thread ran out of memory, or a strategy asked for more than any memory holds: V8's RangeErrors
 * for an allocation that failed, or for a typed array of billions of cells (a line table of 100,000
 * cells by 50,000 blocks). A length that is negative or fractional is the strategy's bug, an error.
 */
function isOutOfMemory(err: { code?: string; message?: string }): boolean {
  const message = err.message ?? '';
  if (err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /memory limit|heap out of memory|Array buffer allocation failed/i.test(message)) return true;
  const length = /^Invalid typed array length: (\d+)$/.exec(message);
  return length !== null && Number(length[1]) >= HUGE_LENGTH;
}

/**
 * Why a thread's measurements cannot be recorded, if they cannot: a time that is no time, or longer
 * than the whole task took here (a strategy that replaced the thread's clock), which every reader
 * of the CSV would refuse or misread.
 */
function implausibleMeasurement(reply: WorkerReply, elapsedMs: number): string | undefined {
  const { timeMs, cpuMs, calibMs } = reply;
  if (typeof timeMs !== 'number' || !Number.isFinite(timeMs) || timeMs < 0 || timeMs > elapsedMs + 1)
    return `the thread measured a time of ${String(timeMs)} ms for a task that took ${elapsedMs.toFixed(1)} ms (did the strategy replace the clock?)`;
  for (const [name, value] of [['CPU time', cpuMs], ['calibration time', calibMs]] as const)
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) return `the thread measured a ${name} of ${String(value)} ms`;
  return undefined;
}

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

/** What the harness's own thread holds (its heap, and the buffers outside it), which no worker task does. */
function ownMemory(): number {
  const { heapTotal, external } = process.memoryUsage();
  return heapTotal + external;
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
  /** Each thread group's warm-up set (see warmUpOn), and what one round of it may take in ms. */
  private readonly warmups = new Map<string, { set: SharedArrayBuffer; roundMs: number }>();
  /** Thread groups whose warm-up failed once: they run cold from then on. */
  private readonly coldGroups = new Set<string>();
  private readonly watchdog: NodeJS.Timeout;
  private settleUntil = 0;

  constructor(readonly options: PoolOptions) {
    this.shared = this.threads(options.sharedAtStart === false ? 0 : options.workers);
    const budget = rssBudget(process.memoryUsage.rss(), options);
    const ownAtStart = ownMemory();
    this.watchdog = setInterval(() => this.checkMemory(budget, ownAtStart), 200);
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
    if (threadGroup(spec) === '') return this.shared;
    let threads = this.isolated.get(spec);
    if (!threads) this.isolated.set(spec, (threads = this.threads(0)));
    return threads;
  }

  private checkMemory(budget: number, ownAtStart: number): void {
    const now = performance.now();
    for (const t of this.inFlight) {
      const reports = t.usage[USAGE_REPORTS]!;
      if (reports !== t.seenReports) {
        t.seenReports = reports;
        t.reportedAt = now;
      }
    }
    if (this.inFlight.size === 0 || now < this.settleUntil || process.memoryUsage.rss() <= budget) return;
    // What the harness's own thread took since (an external solver's CNF, written from here) is no
    // worker task's: blamed on a task that went silent, it would stop a bystander.
    if (process.memoryUsage.rss() - Math.max(0, ownMemory() - ownAtStart) <= budget) return;
    const culprit = memoryCulprit(this.inFlight, this.options.memoryMb / 2, now);
    if (!culprit) return;
    culprit.reason = 'memory';
    culprit.heaviest = culprit.usage[USAGE_MIB]! > this.options.memoryMb / 2;
    culprit.abort.abort();
    this.settleUntil = now + SETTLE_MS;
  }

  /**
   * Has each thread warm up before its first task with `warmup` > 0: `warmup` rounds over these
   * puzzles (a spread of the run's) with every configuration that runs on its threads (see warmUp in
   * worker.ts), before the task's own warm-up solves. A warm-up that fails (a strategy that overruns its deadline on one of these puzzles
   * until the hard limit, or runs out of memory there) is not its task's doing: the task runs again
   * without it, and the threads of that strategy run cold from then on.
   */
  warmUpOn(puzzles: Puzzle[], configs: WarmupConfig[]): void {
    for (const group of new Set(configs.map((c) => threadGroup(c.spec)))) {
      const mine = configs.filter((c) => threadGroup(c.spec) === group);
      const set: WarmupSet = { puzzles, configs: mine.map(({ spec, params }) => ({ spec, ...(params ? { params } : {}) })), configMs: WARMUP_CONFIG_MS };
      // V8's serialisation, as postMessage uses: the puzzles come out shaped (object maps, array
      // element kinds) as the measured ones do, so the code the warm-up optimises fits them.
      const bytes = serialize(set);
      const shared = new SharedArrayBuffer(bytes.length);
      bytes.copy(Buffer.from(shared));
      this.warmups.set(group, { set: shared, roundMs: mine.length * WARMUP_CONFIG_MS });
    }
  }

  async run(task: WorkerTask): Promise<TaskOutcome> {
    const group = threadGroup(task.strategySpec);
    const warmup = task.warmup > 0 && !this.coldGroups.has(group) ? this.warmups.get(group) : undefined;
    const outcome = await this.runOnce(task, warmup);
    if (outcome !== WARMUP_FAILED) return outcome;
    // Said once per group, though its threads' warm-ups may fail side by side.
    if (!this.coldGroups.has(group)) this.options.onColdThreads?.(
      `nonobench: the thread warm-up of ${group || 'the built-in strategies'} failed (a strategy overran its deadline or its memory on one of the run's puzzles): those threads measure cold from here`,
    );
    this.coldGroups.add(group);
    // Without a warm-up, it cannot fail in one.
    return this.runOnce(task, undefined) as Promise<TaskOutcome>;
  }

  private async runOnce(task: WorkerTask, warmup: { set: SharedArrayBuffer; roundMs: number } | undefined): Promise<TaskOutcome | typeof WARMUP_FAILED> {
    const usage = new Int32Array(new SharedArrayBuffer(USAGE_SLOTS * 4));
    const flight: InFlight = { abort: new AbortController(), start: performance.now(), usage, seenReports: 0, reportedAt: 0 };
    this.inFlight.add(flight);
    // The thread's warm-up has a limit of its own, from the start; the task's limit counts from its end.
    const limit = taskLimitMs(task.timeoutMs, task.warmup);
    const warmupLimit = warmup ? hardLimitMs(task.warmup * warmup.roundMs) + WARMUP_START_MS : 0;
    // What the thread says its warm-up took, held to what the warm-up's limit allows: the thread's
    // word is a strategy's to change (it shares the thread), and must not lift the hard limit.
    const warmupMs = () => Math.min(Math.max(0, usage[USAGE_WARMUP]!), warmupLimit);
    const deadline = () => (usage[USAGE_WARMUP]! < 0 ? warmupLimit : limit + warmupMs());
    let timer: NodeJS.Timeout | undefined;
    const expire = () => {
      const left = deadline() - (performance.now() - flight.start);
      if (left > 0) timer = setTimeout(expire, Math.min(left, MAX_TIMER_MS));
      else {
        flight.reason ??= 'timeout';
        flight.abort.abort();
      }
    };
    if (Number.isFinite(limit)) timer = setTimeout(expire, warmup ? Math.min(limit, warmupLimit) : limit);
    const sent: WorkerTask = { ...task, usage: usage.buffer as SharedArrayBuffer };
    if (warmup) sent.warmupSet = warmup.set;
    try {
      const reply = await this.threadsFor(task.strategySpec).run(sent, { signal: flight.abort.signal });
      const wrong = implausibleMeasurement(reply, performance.now() - flight.start);
      return wrong ? { kind: 'error', message: wrong } : { kind: 'done', reply };
    } catch (err) {
      if (usage[USAGE_WARMUP] === -1) return WARMUP_FAILED;
      // Assume no shape: the worker rejects with Errors, but piscina's own failures may be anything.
      const e = (err ?? {}) as { name?: string; code?: string; message?: string };
      if (flight.reason === 'memory')
        return {
          kind: 'memory',
          message: flight.heaviest
            ? `stopped by the memory watchdog: the process went over its memory budget, and this task held the most (${usage[USAGE_MIB]} MiB reported)`
            : 'stopped by the memory watchdog: the process went over its memory budget while this task did not report what it held (it does not poll its cancellation check), so it is the suspect, not a proven holder',
        };
      // What the thread's warm-up took is not the task's time.
      if (flight.reason === 'timeout') return { kind: 'killed', elapsedMs: performance.now() - flight.start - warmupMs() };
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
