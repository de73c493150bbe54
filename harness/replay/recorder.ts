import { UNKNOWN, type Grid } from '../../corpus/model.js';
import type { SolveTrace } from '../../solvers/api/types.js';

/** What a step is; the player words each kind (`row 12: 3 cells`, `guess (r3,c9) = filled, depth 4`, …). */
export const STEP = {
  /** A line solve that set cells, or found the line impossible (arg: the line). */
  line: 0,
  /** A probe that learnt something or met a dead end (arg: the cell). */
  probe: 1,
  /** Probes in a row that learnt nothing, folded into one step (arg: how many). */
  idleProbes: 2,
  /** A search decision (arg: the cell; its value is the step's one cell). */
  guess: 3,
  /** Back to a shallower depth, the branch's cells unknown again. */
  backtrack: 4,
  /** The grid is a solution. */
  solution: 5,
  /** The solve's final grid, set from where the recorded steps end (arg: steps left out). */
  result: 6,
  /** Cells clause learning proved, set at the search's root (auto). */
  learnt: 7,
  /** Clause learning found a solution (arg: solutions it has found so far); the grid stays. */
  found: 8,
} as const;

/** A cell's code in a step: its value (UNKNOWN, FILLED, EMPTY) in bits 0–1, then what decided it. */
export const DECIDED_BY_LINE = 0;
export const DECIDED_BY_PROBE = 1 << 2;
export const DECIDED_BY_GUESS = 2 << 2;
export const DECIDED_BY_LEARNING = 3 << 2;
/** Set when the cell was decided below a guess (so it may be undone). */
export const UNDER_GUESS = 1 << 4;

/** Step info bits: a line or probe value that survived, a branch that failed at once. */
export const INFO_OK = 1;
export const INFO_FILLED_OK = 1;
export const INFO_EMPTY_OK = 2;
export const INFO_DEAD_END = 1;

/** Steps recorded at most by default; the rest of a huge search is left out, and the page says how many. */
export const DEFAULT_MAX_STEPS = 20_000;

/** The recorded steps, column by column, and the cells they set: step i's cells are `cells[end[i−1] … end[i] − 1]`. */
export interface RecordedSteps {
  kind: Uint8Array;
  arg: Int32Array;
  /** Search depth after the step. */
  depth: Uint16Array;
  info: Uint8Array;
  end: Uint32Array;
  cells: Uint32Array;
  codes: Uint8Array;
  /** Steps the cap left out before the final `result` step. */
  omitted: number;
}

/** A growable column of numbers. */
class Column<T extends Uint8Array | Uint16Array | Int32Array | Uint32Array> {
  length = 0;
  constructor(public data: T) {}
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
  last(): number {
    return this.data[this.length - 1]!;
  }
  set(i: number, value: number): void {
    this.data[i] = value;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/**
 * Records a solve's trace as compact steps: each step keeps only the cells it changed, with their
 * new codes. Past `maxSteps` it keeps following the solve without recording, and `finish` adds one
 * step from the last recorded grid to the final one.
 */
export class ReplayRecorder implements SolveTrace {
  private readonly kind = new Column(new Uint8Array(1024));
  private readonly arg = new Column(new Int32Array(1024));
  private readonly depthOf = new Column(new Uint16Array(1024));
  private readonly info = new Column(new Uint8Array(1024));
  private readonly end = new Column(new Uint32Array(1024));
  private readonly cells = new Column(new Uint32Array(4096));
  private readonly codes = new Column(new Uint8Array(4096));
  /** Codes of the grid as the solve has it, and as the recorded steps leave it. */
  private readonly live: Uint8Array;
  private readonly shown: Uint8Array;
  /** Codes when the first solution was met (the search goes on after it, and may undo it). */
  private atSolution: Uint8Array | null = null;
  /** The first solution clause learning found, and how many it has found. */
  private foundFirst: Uint8Array | null = null;
  private foundCount = 0;
  private depth = 0;
  private omitted = 0;
  /** The kind of the last step, recorded or not. */
  private previous = -1;
  private readonly one = new Int32Array(1);

  constructor(
    cellCount: number,
    private readonly maxSteps = DEFAULT_MAX_STEPS,
  ) {
    this.live = new Uint8Array(cellCount);
    this.shown = new Uint8Array(cellCount);
  }

  line(line: number, ok: boolean, grid: Uint8Array, trail: Int32Array, from: number, to: number): void {
    if (ok && from === to) return;
    const by = DECIDED_BY_LINE | this.underGuess();
    this.step(STEP.line, line, ok ? INFO_OK : 0, trail, from, to, (cell) => grid[cell]! | by);
  }

  probe(cell: number, filledOk: boolean, emptyOk: boolean, grid: Uint8Array, trail: Int32Array, from: number, to: number): void {
    const info = (filledOk ? INFO_FILLED_OK : 0) | (emptyOk ? INFO_EMPTY_OK : 0);
    if (filledOk && emptyOk && from === to) {
      // Fruitless probes are most probes: one step per run of them keeps the replay watchable.
      if (this.previous !== STEP.idleProbes) this.step(STEP.idleProbes, 1, info, trail, from, to, () => 0);
      else if (this.omitted === 0) this.arg.set(this.arg.length - 1, this.arg.last() + 1);
      return;
    }
    const by = DECIDED_BY_PROBE | this.underGuess();
    this.step(STEP.probe, cell, info, trail, from, to, (c) => grid[c]! | by);
  }

  guess(cell: number, value: number, depth: number): void {
    this.depth = depth;
    this.one[0] = cell;
    this.step(STEP.guess, cell, 0, this.one, 0, 1, () => value | DECIDED_BY_GUESS | UNDER_GUESS);
  }

  backtrack(depth: number, deadEnd: boolean, trail: Int32Array, from: number, to: number): void {
    this.depth = depth;
    this.step(STEP.backtrack, 0, deadEnd ? INFO_DEAD_END : 0, trail, from, to, () => UNKNOWN);
  }

  solution(): void {
    this.atSolution ??= this.live.slice();
    this.step(STEP.solution, 0, 0, EMPTY_TRAIL, 0, 0, () => 0);
  }

  learnt(grid: Uint8Array, trail: Int32Array, from: number, to: number): void {
    this.step(STEP.learnt, 0, 0, trail, from, to, (cell) => grid[cell]! | DECIDED_BY_LEARNING);
  }

  found(solution: Uint8Array): void {
    this.foundFirst ??= solution.slice();
    this.step(STEP.found, ++this.foundCount, 0, EMPTY_TRAIL, 0, 0, () => 0);
  }

  /**
   * The steps, ending with a `result` step that sets the solve's final grid (its codes from when
   * the first solution was met, else as the solve left them; a cell no step decided counts as
   * decided by clause learning when it found that grid, else as line logic).
   */
  finish(finalGrid: Grid): RecordedSteps {
    const target = new Uint8Array(finalGrid.length);
    for (let cell = 0; cell < finalGrid.length; cell++) {
      const value = finalGrid[cell]!;
      const fromSolution = this.atSolution?.[cell];
      if (fromSolution !== undefined && (fromSolution & 3) === value) target[cell] = fromSolution;
      else if ((this.live[cell]! & 3) === value) target[cell] = this.live[cell]!;
      else if (this.foundFirst?.[cell] === value) target[cell] = value | DECIDED_BY_LEARNING;
      else target[cell] = value;
    }
    const changed: number[] = [];
    for (let cell = 0; cell < target.length; cell++) if (target[cell] !== this.shown[cell]) changed.push(cell);
    this.push(STEP.result, this.omitted, 0, Int32Array.from(changed), 0, changed.length, (c) => target[c]!);
    return {
      kind: this.kind.done(),
      arg: this.arg.done(),
      depth: this.depthOf.done(),
      info: this.info.done(),
      end: this.end.done(),
      cells: this.cells.done(),
      codes: this.codes.done(),
      omitted: this.omitted,
    };
  }

  private underGuess(): number {
    return this.depth > 0 ? UNDER_GUESS : 0;
  }

  /** Follows a step in the live grid, and records it while under the cap. */
  private step(kind: number, arg: number, info: number, trail: Int32Array, from: number, to: number, codeOf: (cell: number) => number): void {
    this.previous = kind;
    if (this.kind.length >= this.maxSteps) {
      this.omitted++;
      for (let t = from; t < to; t++) this.live[trail[t]!] = codeOf(trail[t]!);
      return;
    }
    this.push(kind, arg, info, trail, from, to, codeOf);
  }

  private push(kind: number, arg: number, info: number, cells: Int32Array, from: number, to: number, codeOf: (cell: number) => number): void {
    this.kind.push(kind);
    this.arg.push(arg);
    this.depthOf.push(this.depth);
    this.info.push(info);
    for (let t = from; t < to; t++) {
      const cell = cells[t]!;
      const code = codeOf(cell);
      this.cells.push(cell);
      this.codes.push(code);
      this.live[cell] = code;
      this.shown[cell] = code;
    }
    this.end.push(this.cells.length);
  }
}

const EMPTY_TRAIL = new Int32Array(0);
