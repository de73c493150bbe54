import type { Puzzle } from '../../corpus/model.js';
import { loadStrategy } from '../../solvers/strategies/registry.js';
import { measureCalibration } from './calibration.js';
import { TaskMemory, threadCpuMs, threadCpuSince } from './task-usage.js';
import { resourceLimits } from 'node:worker_threads';
import { thrownMessage } from '../io/thrown.js';
import { deadlineAfter, type SolveResult, type Strategy } from '../../solvers/api/types.js';
import type { WorkerReply } from '../results/outcome.js';

/** What the parent sends a worker thread for one task. */
export interface WorkerTask {
  puzzle: Puzzle;
  strategySpec: string;
  maxSolutions: number;
  /** The soft limit the strategy polls; the parent enforces a hard one a little later. */
  timeoutMs: number;
  warmup: number;
  params?: Record<string, number | boolean | string>;
  /** Where the thread reports the memory its task holds (see TaskMemory). */
  usage?: SharedArrayBuffer;
}

/** The task's memory limit: the thread's heap limit, which `--memory` sets, for all it holds. */
const LIMIT_MIB = resourceLimits.maxOldGenerationSizeMb ?? Infinity;


/** How often a worker re-measures the machine's speed, in ms: often enough to follow changing load, cheap (~3 ms). */
const CALIBRATE_EVERY_MS = 1000;
// Measured once as the thread starts (piscina loads this module then), so the first task does not wait for it.
let calibMs = measureCalibration();
let calibratedAt = performance.now();

const strategies = new Map<string, Promise<Strategy>>();
/** Strategies this thread has warmed up (see runTask), and for how long at least. */
const warmedUp = new Set<string>();
const FIRST_WARMUP_MS = 200;

function strategyFor(spec: string): Promise<Strategy> {
  let s = strategies.get(spec);
  if (!s) {
    s = loadStrategy(spec);
    strategies.set(spec, s);
  }
  return s;
}

function solveOnce(strategy: Strategy, task: WorkerTask, memory: TaskMemory): SolveResult | Promise<SolveResult> {
  return strategy.solve(task.puzzle, {
    maxSolutions: task.maxSolutions,
    shouldStop: memory.watch(deadlineAfter(task.timeoutMs)),
    ...(task.params ? { params: task.params } : {}),
  });
}

/**
 * Runs a task; whatever goes wrong reaches the parent as a rejection with an Error. Piscina
 * mishandles a thrown null or undefined (null reads as success), and a reply that cannot be cloned
 * kills the thread with an error that arrives empty, so both become Errors that say what happened.
 */
export default async function runTask(task: WorkerTask): Promise<WorkerReply> {
  let reply: WorkerReply;
  try {
    reply = await measuredRun(task);
  } catch (err) {
    throw err instanceof Error ? err : new Error(thrownMessage(err));
  }
  try {
    structuredClone(reply); // what postMessage will do; ~10 µs for a 25×25 result
  } catch (err) {
    throw new Error(`its result cannot be sent from the worker: ${thrownMessage(err)}`);
  }
  return reply;
}

/** Runs the warm-up solves (not measured), then the measured one. */
async function measuredRun(task: WorkerTask): Promise<WorkerReply> {
  const strategy = await strategyFor(task.strategySpec);
  if (performance.now() - calibratedAt > CALIBRATE_EVERY_MS) {
    calibMs = measureCalibration();
    calibratedAt = performance.now();
  }
  const memory = new TaskMemory(task.usage ? new Int32Array(task.usage) : undefined, LIMIT_MIB);
  const checked = <T>(value: T): T => {
    if (memory.over !== undefined) throw new Error(memory.over);
    return value;
  };
  let lastSolveMs = 0;
  for (let i = 0; i < task.warmup; i++) {
    const t = performance.now();
    checked(await solveOnce(strategy, task, memory));
    lastSolveMs = performance.now() - t;
  }
  // A few solves of a small puzzle do not get a strategy's code optimised: the first warmed task of
  // each strategy in a thread keeps warming up a little longer, so no early task measures the compiler.
  // Only solves expected to end within FIRST_WARMUP_MS start, so the task stays inside its hard limit.
  if (task.warmup > 0 && !warmedUp.has(task.strategySpec)) {
    warmedUp.add(task.strategySpec);
    const until = performance.now() + FIRST_WARMUP_MS;
    for (let t = performance.now(); t + lastSolveMs < until; t = performance.now()) {
      checked(await solveOnce(strategy, task, memory));
      lastSolveMs = performance.now() - t;
    }
  }
  const cpuBefore = threadCpuMs();
  const start = performance.now();
  let result = solveOnce(strategy, task, memory);
  // Awaited only when it is a Promise, so that a synchronous solve is timed alone.
  if (result instanceof Promise) result = await result;
  const timeMs = performance.now() - start;
  checked(result);
  const cpuMs = threadCpuSince(cpuBefore);
  const reply: WorkerReply = { result, timeMs, calibMs };
  if (cpuMs !== undefined) reply.cpuMs = cpuMs;
  return reply;
}
