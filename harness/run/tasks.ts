import type { Puzzle } from '../../corpus/model.js';
import type { Configuration } from '../config/configurations.js';
import type { Shard } from './shard.js';
import { UsageError } from '../io/thrown.js';

export { parseShard, type Shard } from './shard.js';

/** One unit of work: a puzzle solved once by one configuration. */
export interface Task {
  /** Position in the full (unsharded) task list: stable for a given corpus and configuration. */
  index: number;
  puzzle: Puzzle;
  config: Configuration;
  /** 1-based repetition number. */
  rep: number;
}


/** The most tasks one run takes: the task list is built whole, and past this it would not fit in memory. */
export const MAX_TASKS = 5_000_000;

/** A run of more tasks than MAX_TASKS: refused before anything is written. */
export class TooManyTasks extends UsageError {}

/** Tasks in a deterministic order: puzzle by puzzle, each configuration, each repetition. */
export function buildTasks(puzzles: Puzzle[], configs: Configuration[], repeat: number): Task[] {
  const count = puzzles.length * configs.length * repeat;
  if (count > MAX_TASKS)
    throw new TooManyTasks(
      `the run would have ${count.toLocaleString('en-US')} tasks (${puzzles.length} puzzles × ${configs.length} configurations × ${repeat} repetitions), ` +
        `more than the limit of ${MAX_TASKS.toLocaleString('en-US')}: give fewer repetitions or puzzles`,
    );
  const tasks: Task[] = [];
  for (const puzzle of puzzles)
    for (const config of configs)
      for (let rep = 1; rep <= repeat; rep++) tasks.push({ index: tasks.length, puzzle, config, rep });
  return tasks;
}

/**
 * The order tasks run in: in rounds, round r holding repetition r of every puzzle and strategy (in
 * task order). The repetitions of one pair are then spread over the run, so a passing slowdown of
 * the machine touches one of them rather than all five: compare's interval treats repetitions as
 * independent, and back-to-back ones share the machine's moment and move together.
 */
export function inRounds(tasks: Task[]): Task[] {
  return [...tasks].sort((a, b) => a.rep - b.rep || a.index - b.index);
}

/**
 * The K-th of N slices: every N-th puzzle starting at the K-th, with all its configurations and
 * repetitions, so slices partition the task list exactly and stay balanced across puzzle sizes.
 */
export function shardTasks(tasks: Task[], shard: Shard, tasksPerPuzzle: number): Task[] {
  return tasks.filter((t) => Math.floor(t.index / tasksPerPuzzle) % shard.n === shard.k - 1);
}

/**
 * At most `max` of the tasks' puzzles, spread evenly over them in task order (every one when they
 * are few), each once: what a thread warms up on, so that it has seen the run's kinds of puzzles.
 */
export function spreadPuzzles(tasks: Task[], max: number): Puzzle[] {
  const puzzles = [...new Set(tasks.map((t) => t.puzzle))];
  const n = Math.min(max, puzzles.length);
  return Array.from({ length: n }, (_, i) => puzzles[Math.floor((i * puzzles.length) / n)]!);
}
