import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

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
    Atomics.wait(sleeper, 0, 0, 0.01);
    const ns = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** Where the parent reads what a task holds (see pool.ts): MiB above the thread's start, and a count of reports. */
export const USAGE_MIB = 0;
export const USAGE_REPORTS = 1;
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
