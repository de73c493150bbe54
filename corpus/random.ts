/**
 * A small seeded pseudo-random generator with integer-only arithmetic, so the same seed gives
 * the same sequence on every machine and Node version (Math.random cannot be seeded).
 *
 * Design: a 32-bit Weyl counter (step = the odd constant 0x9E3779B9, so it visits every state
 * once per 2^32 draws) whose value is scrambled by the 32-bit MurmurHash3 finaliser.
 * Plenty for picking cells of test puzzles; not for cryptography.
 */

const WEYL_STEP = 0x9e3779b9;

/** MurmurHash3's 32-bit finaliser: a bijection that spreads every input bit over the output. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

export interface Rng {
  /** The next value, uniform over the integers 0 … 2^32 − 1. */
  nextUint32(): number;
  /** The next value, uniform over 0 … n − 1 (n ≤ 2^32), without modulo bias. */
  nextBelow(n: number): number;
  /** True with probability `threshold / 2^32` (see `probabilityThreshold`). */
  chance(threshold: number): boolean;
}

/** Largest seed accepted: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff;

export function isValidSeed(seed: number): boolean {
  return Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;
}

/** A generator for a seed (an integer 0 … 2^32 − 1). */
export function createRng(seed: number): Rng {
  if (!isValidSeed(seed)) throw new Error(`seed must be an integer from 0 to ${MAX_SEED}, got ${seed}`);
  // Scramble the seed once so nearby seeds start far apart on the counter.
  let state = mix32(seed ^ 0x5bd1e995);
  const nextUint32 = (): number => {
    state = (state + WEYL_STEP) >>> 0;
    return mix32(state);
  };
  return {
    nextUint32,
    nextBelow(n: number): number {
      if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new Error(`nextBelow: bad range ${n}`);
      // Rejection sampling: drop the top partial copy of the range so every value is equally likely.
      const limit = 2 ** 32 - (2 ** 32 % n);
      for (;;) {
        const v = nextUint32();
        if (v < limit) return v % n;
      }
    },
    chance(threshold: number): boolean {
      return nextUint32() < threshold;
    },
  };
}

/** The seed of the k-th member of a seeded series: independent streams without sharing state. */
export function deriveSeed(seed: number, k: number): number {
  return mix32((mix32(seed) + Math.imul(k, WEYL_STEP)) >>> 0);
}

/**
 * An integer threshold for `Rng.chance` matching a probability in [0, 1]: comparing integers keeps the
 * outcome exact and machine-independent (density 1 gives 2^32, above every draw).
 */
export function probabilityThreshold(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new Error(`probability must be between 0 and 1, got ${p}`);
  return Math.round(p * 2 ** 32);
}
