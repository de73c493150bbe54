import type { Puzzle } from '../../corpus/model.js';
import { loadStrategy } from '../../solvers/strategies/registry.js';
// `now`: the clock as it was before any strategy loaded (a strategy shares the thread, and may replace `performance.now`).
import { clock as now, measureCalibration } from './calibration.js';
import { TaskMemory, threadCpuMs, threadCpuSince, USAGE_WARMUP } from './task-usage.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { deserialize } from 'node:v8';
import { resourceLimits } from 'node:worker_threads';
import { oneLine, thrownMessage } from '../io/thrown.js';
import { deadlineAfter, type Strategy } from '../../solvers/api/types.js';
import type { WorkerReply } from '../results/outcome.js';

/** A configuration as a thread's warm-up runs it. */
export interface WarmupConfig {
  spec: string;
  params?: Record<string, number | boolean | string>;
}

/**
 * What a thread warms up on before its first task (see SolverPool.warmUpOn): a spread of the run's
 * puzzles and every configuration that runs on these threads.
 */
export interface WarmupSet {
  puzzles: Puzzle[];
  configs: WarmupConfig[];
  /** In each round, a configuration starts no more warm-up solves once its own have taken this long (ms). */
  configMs: number;
}

/** What the parent sends a worker thread for one task. */
export interface WorkerTask {
  puzzle: Puzzle;
  strategySpec: string;
  maxSolutions: number;
  /** The soft limit the strategy polls; the parent enforces a hard one a little later. */
  timeoutMs: number;
  /**
   * Unmeasured solves of the puzzle before the measured one; when above 0, the thread also warms up
   * over `warmupSet` before its first task, as many rounds.
   */
  warmup: number;
  /** A WarmupSet serialised (node:v8) in shared memory, so that every task carries it without a copy. */
  warmupSet?: SharedArrayBuffer;
  params?: Record<string, number | boolean | string>;
  /** Where the thread reports the memory its task holds and its warm-up (see TaskMemory, USAGE_WARMUP). */
  usage?: SharedArrayBuffer;
}

/** The task's memory limit: the thread's heap limit, which `--memory` sets, for all it holds. */
const LIMIT_MIB = resourceLimits.maxOldGenerationSizeMb ?? Infinity;

/** How often a worker re-measures the machine's speed, in ms: often enough to follow changing load, cheap (~3 ms). */
const CALIBRATE_EVERY_MS = 1000;
// Measured once as the thread starts (piscina loads this module then), so the first task does not wait for it.
let calibMs = measureCalibration();
let calibratedAt = now();

/** structuredClone as it was before any strategy loaded (a strategy shares the thread, and may replace it). */
const clone = structuredClone;

const strategies = new Map<string, Promise<Strategy>>();
/** Whether this thread has run its warm-up (or started it: a failed one is not tried again). */
let warmedUp = false;
/** Every warm-up solve is stopped after this long (ms): a longer solve warms up in its own first milliseconds. */
const WARMUP_SOLVE_MS = 10;
/** A round of the thread's warm-up runs at least this many solves per configuration (when its time allows), so that a run of few puzzles warms up too. */
const WARMUP_MIN_SOLVES = 64;

function strategyFor(spec: string): Promise<Strategy> {
  let s = strategies.get(spec);
  if (!s) {
    s = loadStrategy(spec);
    strategies.set(spec, s);
  }
  return s;
}

/** One solve of `puzzle` stopped after `ms`, as the warm-ups run it. */
function warmUpSolve(strategy: Strategy, puzzle: Puzzle, params: WarmupConfig['params'], task: WorkerTask, memory: TaskMemory, ms: number) {
  return strategy.solve(puzzle, {
    maxSolutions: task.maxSolutions,
    shouldStop: memory.watch(deadlineAfter(Math.min(ms, task.timeoutMs))),
    ...(params ? { params } : {}),
  });
}

/**
 * The thread's warm-up, `task.warmup` rounds: each solves every puzzle of the set with every
 * configuration, unmeasured, then more passes until each has run WARMUP_MIN_SOLVES, so that the JIT has seen the
 * run's kinds of puzzles with all the strategies sharing this thread's code before anything is
 * measured (warming up on the task's own puzzle alone leaves the first repetition slower). A
 * configuration starts no more solves once its share of the round is spent, so the warm-up takes a
 * bounded time whatever the puzzles. A solve that throws is ignored: its puzzle's own task reports it.
 */
async function warmUp(set: WarmupSet, configs: (WarmupConfig & { strategy: Strategy })[], task: WorkerTask, memory: TaskMemory): Promise<void> {
  for (let round = 0; round < task.warmup && set.puzzles.length > 0; round++) {
    const spent = configs.map(() => 0);
    const solves = configs.map(() => 0);
    for (let pass = 0; configs.some((_, i) => solves[i]! < WARMUP_MIN_SOLVES && spent[i]! < set.configMs); pass++)
      for (const puzzle of set.puzzles)
        for (const [i, c] of configs.entries()) {
          const left = set.configMs - spent[i]!;
          if (left <= 0 || (pass > 0 && solves[i]! >= WARMUP_MIN_SOLVES)) continue;
          const start = now();
          try {
            await warmUpSolve(c.strategy, clone(puzzle), c.params, task, memory, Math.min(WARMUP_SOLVE_MS, left)); // a puzzle of its own, as every solve
          } catch {
            // reported by that puzzle's own task
          }
          spent[i]! += now() - start;
          solves[i]!++;
          if (memory.over !== undefined) throw new Error(`during the warm-up: ${memory.over}`);
        }
  }
}

/** The task each piece of asynchronous work was started by (timers, promises and callbacks keep it). */
const taskContext = new AsyncLocalStorage<number>();
/** The owner of the thread warm-up's work, which is no task's (task ids start at 1). */
const WARMUP_OWNER = 0;
let tasksRun = 0;
/** The task running on this thread, and where it reports its usage. */
let running: number | null = null;
let runningUsage: Int32Array | undefined;

/**
 * An error nothing caught: the running task's, unless work an earlier task or the thread's warm-up
 * left behind (a timer that fires after its solve returned) threw it. That task's row is recorded
 * already, the warm-up has none, and the task now running did not fail: the error is reported on
 * stderr and goes no further. The running task's own error ends the thread, as it would without
 * this handler: the task fails with it, and none of its work is left running beside the tasks after it.
 */
function uncaught(err: unknown): void {
  const owner = taskContext.getStore();
  if (owner === WARMUP_OWNER)
    process.stderr.write(`nonobench: work a warm-up solve left behind threw (no task's row is affected): ${oneLine(thrownMessage(err))}\n`);
  else if (running !== null && (owner === undefined || owner === running)) {
    // The task's own error, even while the warm-up runs (a timer its module started as it loaded): not a failed warm-up.
    if (runningUsage && Atomics.load(runningUsage, USAGE_WARMUP) === -1) Atomics.store(runningUsage, USAGE_WARMUP, 0);
    process.off('uncaughtException', uncaught);
    process.off('unhandledRejection', uncaught);
    process.nextTick(() => {
      throw sendable(err);
    });
  } else process.stderr.write(`nonobench: a strategy threw after its task had returned (its row stands as recorded): ${oneLine(thrownMessage(err))}\n`);
}
process.on('uncaughtException', uncaught);
process.on('unhandledRejection', uncaught);

/**
 * What a strategy threw, as a plain Error of its message alone: the value itself may not survive the
 * way to the parent (a `cause` holding a function, a getter that throws, a Proxy cannot be cloned,
 * and the task then never settled), and piscina mishandles a thrown null or undefined.
 */
const sendable = (err: unknown): Error => new Error(thrownMessage(err));

/**
 * Runs a task; whatever goes wrong reaches the parent as a rejection with a plain Error (see
 * sendable). A reply that cannot be cloned kills the thread with an error that arrives empty, so it
 * becomes an Error that says what happened.
 */
export default async function runTask(task: WorkerTask): Promise<WorkerReply> {
  let reply: WorkerReply;
  const id = ++tasksRun;
  try {
    running = id;
    reply = await taskContext.run(id, () => measuredRun(task));
  } catch (err) {
    throw sendable(err);
  } finally {
    running = null;
    runningUsage = undefined;
  }
  let copy: unknown;
  try {
    copy = clone(reply); // what postMessage will do; ~10 µs for a 25×25 result
  } catch (err) {
    throw new Error(`its result cannot be sent from the worker: ${thrownMessage(err)}`);
  }
  // Cloned here, a result thousands of levels deep still overflows the stack where the parent reads it
  // again, and the message is lost: the task would never settle.
  if (nestedDeeperThan(copy, MAX_RESULT_DEPTH)) throw new Error(`its result cannot be sent from the worker: it is nested more than ${MAX_RESULT_DEPTH} levels deep`);
  return reply;
}

/** The deepest nesting a result may have: far beyond any real one (metrics.extra is a flat record). */
const MAX_RESULT_DEPTH = 64;

/** Whether plain data (a clone: no getters) holds objects more than `max` levels deep; typed arrays count as leaves. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[root, 0]];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || seen.has(value)) continue;
    if (depth >= max) return true;
    seen.add(value);
    for (const child of Array.isArray(value) ? value : Object.values(value)) if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}

/** Runs the thread's warm-up when this is its first task, the task's warm-up solves, then the measured solve. */
async function measuredRun(task: WorkerTask): Promise<WorkerReply> {
  const usage = task.usage ? new Int32Array(task.usage) : undefined;
  runningUsage = usage;
  if (task.warmupSet && task.warmup > 0 && !warmedUp) {
    warmedUp = true;
    const set = deserialize(Buffer.from(task.warmupSet)) as WarmupSet;
    const start = now();
    // Loaded as the task's work, before the warm-up begins: what a module does as it loads is no warm-up solve's.
    const configs = await Promise.all(set.configs.map(async (c) => ({ ...c, strategy: await strategyFor(c.spec) })));
    if (usage) Atomics.store(usage, USAGE_WARMUP, -1);
    // Its own memory account: what the task holds is counted from after it; and its own owner, so
    // that what its solves leave behind is not charged to this task (see uncaught).
    await taskContext.run(WARMUP_OWNER, () => warmUp(set, configs, task, new TaskMemory(usage, LIMIT_MIB)));
    if (usage) Atomics.store(usage, USAGE_WARMUP, Math.ceil(now() - start));
  }
  const strategy = await strategyFor(task.strategySpec);
  if (now() - calibratedAt > CALIBRATE_EVERY_MS) {
    calibMs = measureCalibration();
    calibratedAt = now();
  }
  const memory = new TaskMemory(usage, LIMIT_MIB);
  const checked = <T>(value: T): T => {
    if (memory.over !== undefined) throw new Error(memory.over);
    return value;
  };
  // Each solve gets a puzzle of its own, copied before its clock starts: a strategy that changes the
  // puzzle it is given (reverses its rows, uses a clue as scratch) must not hand that to the next solve.
  for (let i = 0; i < task.warmup; i++) checked(await warmUpSolve(strategy, clone(task.puzzle), task.params, task, memory, WARMUP_SOLVE_MS));
  const puzzle = clone(task.puzzle);
  const cpuBefore = threadCpuMs();
  const start = now();
  let result = strategy.solve(puzzle, {
    maxSolutions: task.maxSolutions,
    shouldStop: memory.watch(deadlineAfter(task.timeoutMs)),
    ...(task.params ? { params: task.params } : {}),
  });
  // Awaited only when it is a Promise, so that a synchronous solve is timed alone.
  if (result instanceof Promise) result = await result;
  const timeMs = now() - start;
  checked(result);
  const cpuMs = threadCpuSince(cpuBefore);
  const reply: WorkerReply = { result, timeMs, calibMs };
  if (cpuMs !== undefined) reply.cpuMs = cpuMs;
  return reply;
}
