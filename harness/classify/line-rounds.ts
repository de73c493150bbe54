import type { SolveTrace } from '../../solvers/api/types.js';

/**
 * Counts the rounds exact line propagation takes to reach its fixpoint, from the propagator's own
 * line solves (attached as its trace). Every line is queued for round 1; a line with a cell that a
 * round-r solve set is queued for round r + 1 unless it is queued already. The propagator's queue is
 * first in, first out, so it solves round by round, and this follows it without a queue of its own.
 * `rounds` counts the rounds in which some line decided a cell (the last, confirming one is not counted).
 */
export class LineRounds implements SolveTrace {
  rounds = 0;
  /** The round each queued line waits for; 0 when it is not queued. */
  private readonly pending: Int32Array;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {
    this.pending = new Int32Array(width + height).fill(1);
  }

  line(line: number, _ok: boolean, _grid: Uint8Array, trail: Int32Array, from: number, to: number): void {
    const round = this.pending[line]!;
    if (round === 0) throw new Error(`line rounds: internal error: line ${line} solved while not queued`);
    this.pending[line] = 0;
    if (to > from && round > this.rounds) this.rounds = round;
    for (let t = from; t < to; t++) {
      const y = Math.floor(trail[t]! / this.width);
      const column = this.height + trail[t]! - y * this.width;
      if (this.pending[y] === 0) this.pending[y] = round + 1;
      if (this.pending[column] === 0) this.pending[column] = round + 1;
    }
  }

  /** True when no line waits to be solved, as at the propagator's fixpoint: the count followed its queue. */
  get settled(): boolean {
    return this.pending.every((round) => round === 0);
  }

  probe(): void {}
  guess(): void {}
  backtrack(): void {}
  solution(): void {}
  learnt(): void {}
  found(): void {}
}
