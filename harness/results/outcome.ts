import type { SolveResult } from '../../solvers/api/types.js';

/** What a worker sends back for a task that returned. */
export interface WorkerReply {
  result: SolveResult;
  /** Solver time of the measured solve, monotonic clock, in milliseconds. */
  timeMs: number;
  /** The thread's latest calibration time (see measureCalibration). */
  calibMs: number;
}

/** How one task ended, seen from the parent: what verification and the row are made from. */
export type TaskOutcome =
  | { kind: 'done'; reply: WorkerReply }
  /** Stopped for real: the strategy did not return by the hard limit, so its thread was terminated. */
  | { kind: 'killed'; elapsedMs: number }
  | { kind: 'memory'; message: string }
  | { kind: 'error'; message: string };
