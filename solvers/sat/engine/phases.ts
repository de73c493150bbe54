import { sign, varOf } from './literals.js';

/** In `target` and `best`: no phase recorded for the variable. */
const NO_PHASE = 2;
/** Rephase k happens REPHASE_INTERVAL·k conflicts after rephase k - 1. */
const REPHASE_INTERVAL = 1000;
/** What each rephase resets saved phases to, cyclically: Best, Original (false), Inverted (true). */
const REPHASE_CYCLE = 'BOBI';

/**
 * Which value a decision tries: the saved phase (the variable's last value), overridden by the
 * target phase, its value on the longest conflict-free trail prefix since the last rephase (as in
 * CaDiCaL and Kissat). Rephasing resets the saved phases in turn to the best phases (the longest
 * such prefix since the last reset to them), all false, best again, all true, so the search keeps
 * returning to nearly consistent assignments instead of drifting. Phases are sign bits: 1 = false.
 */
export class Phases {
  /** Saved phase per variable, false by default. */
  readonly polarity: Uint8Array;
  private readonly target: Uint8Array;
  private targetSize = 0;
  private readonly best: Uint8Array;
  private bestSize = 0;
  /** The conflict count at which the next rephase happens. */
  nextRephase = REPHASE_INTERVAL;

  constructor(numVars: number) {
    this.polarity = new Uint8Array(numVars).fill(1);
    this.target = new Uint8Array(numVars).fill(NO_PHASE);
    this.best = new Uint8Array(numVars).fill(NO_PHASE);
  }

  /** The sign bit a decision on v takes. */
  of(v: number): number {
    const phase = this.target[v]!;
    return phase === NO_PHASE ? this.polarity[v]! : phase;
  }

  /** Records the first `prefix` trail literals, propagated without conflict, as target / best phases when longer than before. */
  update(trail: Int32Array, prefix: number): void {
    if (prefix <= this.targetSize) return; // bestSize ≥ targetSize, so neither improves
    const { target, best } = this;
    this.targetSize = prefix;
    if (prefix > this.bestSize) {
      this.bestSize = prefix;
      for (let i = 0; i < prefix; i++) {
        const lit = trail[i]!;
        target[varOf(lit)] = best[varOf(lit)] = sign(lit);
      }
    } else {
      for (let i = 0; i < prefix; i++) target[varOf(trail[i]!)] = sign(trail[i]!);
    }
  }

  /** Rephase number `count` (0-based) at `conflicts`: resets the saved phases and forgets the target. */
  rephase(count: number, conflicts: number): void {
    const kind = REPHASE_CYCLE[count % REPHASE_CYCLE.length];
    if (kind === 'B') {
      for (let v = 0; v < this.best.length; v++) if (this.best[v] !== NO_PHASE) this.polarity[v] = this.best[v]!;
      this.bestSize = 0;
    } else {
      this.polarity.fill(kind === 'O' ? 1 : 0);
    }
    this.target.fill(NO_PHASE);
    this.targetSize = 0;
    this.nextRephase = conflicts + REPHASE_INTERVAL * (count + 2);
  }
}
