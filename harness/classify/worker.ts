import { deadlineAfter } from '../../solvers/api/types.js';
import { classify, type Classification } from './classify.js';
import type { WorkerTask } from '../run/worker.js';

/**
 * What the parent sends a classify worker: the run worker's task shape (the pool reads
 * `timeoutMs` and `warmup` from it to set the hard limit); the strategy fields are unused.
 */
export type ClassifyTask = WorkerTask;

export interface ClassifyReply {
  classification: Classification;
  /** Classification time on the monotonic clock, in milliseconds. */
  timeMs: number;
}

/** Classifies one puzzle under the soft time limit; the pool enforces the hard one. */
export default function classifyTask(task: ClassifyTask): ClassifyReply {
  const start = performance.now();
  const classification = classify(task.puzzle, { shouldStop: deadlineAfter(task.timeoutMs) });
  return { classification, timeMs: performance.now() - start };
}
