/**
 * The most unmeasured warm-up solves a task may ask for (`--warmup`, a definition's `warmup`):
 * warm-up only has to bring the JIT to steady state, which a few solves do, and each one costs up
 * to 10 ms per task, so a larger number is a slip that would keep a run busy for ever.
 */
export const MAX_WARMUP = 100;
