import { openSync, readSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const digits = Buffer.alloc(64);
/** The thread's schedstat file, kept open (a read then costs one syscall); null where there is none. */
let schedstat: number | null | undefined;

/**
 * This thread's CPU time so far, in ms, from the kernel's own accounting of the thread (Linux:
 * /proc/thread-self/schedstat, in nanoseconds); undefined where that file does not exist. Unlike
 * wall time, it does not grow while other processes hold the cores.
 *
 * The kernel brings a running thread's figure up to date only at a scheduler tick or when the
 * thread is switched out, so the thread first sleeps for 10 µs: without that the figure lags by
 * up to a tick (4 ms here), more than a small puzzle's whole solve.
 */
export function threadCpuMs(): number | undefined {
  try {
    if (schedstat === undefined) schedstat = openSync('/proc/thread-self/schedstat', 'r');
    if (schedstat === null) return undefined;
    Atomics.wait(sleeper, 0, 0, 0.01);
    const n = readSync(schedstat, digits, 0, digits.length, 0);
    let ns = 0;
    for (let i = 0; i < n && digits[i]! >= 48 && digits[i]! <= 57; i++) ns = ns * 10 + digits[i]! - 48;
    return ns / 1e6;
  } catch {
    schedstat = null;
    return undefined;
  }
}

/** What two readings cost by themselves (the sleep's wake-up, the read), measured once per thread. */
let readingCostMs: number | undefined;

function readingCost(): number {
  if (readingCostMs === undefined) {
    const costs: number[] = [];
    for (let i = 0; i < 31; i++) {
      const a = threadCpuMs() ?? 0;
      costs.push((threadCpuMs() ?? 0) - a);
    }
    readingCostMs = costs.sort((x, y) => x - y)[15]!;
  }
  return readingCostMs;
}

/** The thread's CPU time since `before` (a threadCpuMs reading), less what the readings cost. */
export function threadCpuSince(before: number | undefined): number | undefined {
  const now = threadCpuMs();
  if (before === undefined || now === undefined) return undefined;
  return Math.max(0, now - before - readingCost());
}

/** Where the parent reads what a task holds (see pool.ts): MiB above the thread's start, and a count of reports. */
export const USAGE_MIB = 0;
export const USAGE_REPORTS = 1;
/** The thread's warm-up in this task: -1 while it runs (or when it failed), then how long it took in ms; 0 for none. */
export const USAGE_WARMUP = 2;
/** Int32 slots of a task's usage buffer. */
export const USAGE_SLOTS = 3;
/** How often a polling task reports its memory, in ms. */
const REPORT_EVERY_MS = 20;

/**
 * The memory a task holds in its thread: the heap and the memory outside it (typed arrays), above
 * what the thread held when the task started, from the thread's own V8 statistics. Reported at
 * the strategy's polls to the parent's watchdog, and checked against the task's limit there: a
 * task over it is told to stop, and its row says `memory`.
 */
export class TaskMemory {
  private readonly base: number;
  private nextReport = 0;
  /** Set once the task went over its limit: the worker then fails the task with the figures. */
  over: string | undefined;

  constructor(
    private readonly usage: Int32Array | undefined,
    private readonly limitMib: number,
  ) {
    this.base = TaskMemory.held();
    this.report();
  }

  private static held(): number {
    const h = getHeapStatistics();
    return h.used_heap_size + h.external_memory;
  }

  private report(): void {
    const mib = Math.max(0, Math.round((TaskMemory.held() - this.base) / 2 ** 20));
    if (this.usage) {
      Atomics.store(this.usage, USAGE_MIB, mib);
      Atomics.add(this.usage, USAGE_REPORTS, 1);
    }
    if (mib > this.limitMib) this.over ??= `over its memory limit: the task held ${mib} MiB in its thread, more than --memory ${this.limitMib}`;
  }

  /** A cancellation check that also reports the task's memory and stops it past its limit. */
  watch(shouldStop: () => boolean): () => boolean {
    return () => {
      const now = performance.now();
      if (now >= this.nextReport) {
        this.nextReport = now + REPORT_EVERY_MS;
        this.report();
      }
      return this.over !== undefined || shouldStop();
    };
  }
}
