import type { SolveResult } from '../../solvers/api/types.js';

/** What a worker sends back for a task that returned. */
export interface WorkerReply {
  result: SolveResult;
  /** Solver time of the measured solve, monotonic clock, in milliseconds. */
  timeMs: number;
  /** The thread's latest calibration time (see measureCalibration); absent for an external solver. */
  calibMs?: number;
  /** CPU time of the worker thread during the measured solve, where the system tells it (see threadCpuMs). */
  cpuMs?: number;
}

/** CPU time and peak memory of a solve, where they could be measured. */
export interface ResourceUsage {
  /** User + system CPU time: the worker thread's own, or the kernel's accounting of an external solver's processes. */
  cpuMs: number | '';
  /** Peak resident memory of an external solver's largest process, in KiB. */
  peakRssKb: number | '';
}

/** How one task ended, seen from the parent: what verification and the row are made from. */
export type TaskOutcome = (
  | { kind: 'done'; reply: WorkerReply }
  /** Stopped for real: the strategy did not return by the hard limit, so its thread (or process) was ended. */
  | { kind: 'killed'; elapsedMs: number; message?: string }
  | { kind: 'memory'; message: string }
  | { kind: 'error'; message: string; elapsedMs?: number }
) & { usage?: ResourceUsage };
