import { readFileSync } from 'node:fs';

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
