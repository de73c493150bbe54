/**
 * Line-solver throughput: solves per second of 30-cell lines with 5 blocks and a random partial
 * state, for the exact line solver (and its table form, which the bit-parallel forms replace up to
 * MULTI_MAX cells) and the overlap line solver (tinybench).
 *
 *   node dist/test/bench/line.js [--cells 30] [--blocks 5 | --density D] [--time 2000]
 *
 * Two kinds of state: "revealed" lines show a random subset of the cells of a real placement (so
 * they are solvable); "random" lines set random cells to random values (mostly impossible, so most
 * calls stop early). The clues have --blocks blocks of random lengths, which leave them little
 * room, or with --density are read off random lines whose cells are filled with that probability.
 */
import { Bench } from 'tinybench';
import { parseArgs } from 'node:util';
import { EMPTY, FILLED, UNKNOWN } from '../../corpus/model.js';
import { createRng, type Rng } from '../../corpus/random.js';
import { ExactLineSolver } from '../../solvers/line/exact.js';
import { OverlapLineSolver } from '../../solvers/line/overlap.js';
import type { LineSolver } from '../../solvers/line/line-solver.js';

interface LineCase {
  clue: Int32Array;
  state: Uint8Array;
}

/** Block lengths summing to at most `cells - blocks + 1`, drawn at random. */
function randomClue(rng: Rng, cells: number, blocks: number): Int32Array {
  const clue = new Int32Array(blocks);
  let room = cells - (blocks - 1);
  for (let j = 0; j < blocks; j++) {
    const maxLen = Math.max(1, Math.floor((room - (blocks - 1 - j)) / 2));
    clue[j] = 1 + rng.nextBelow(maxLen);
    room -= clue[j]!;
  }
  return clue;
}

/** The clue of a random line of `cells` cells, each filled with probability `density`, and that line. */
function pictureClue(rng: Rng, cells: number, density: number): { clue: Int32Array; full: Uint8Array } {
  const full = Uint8Array.from({ length: cells }, () => (rng.nextBelow(1 << 20) < density * (1 << 20) ? FILLED : EMPTY));
  const clue: number[] = [];
  let run = 0;
  for (let i = 0; i <= cells; i++) {
    if (i < cells && full[i] === FILLED) run++;
    else if (run > 0) {
      clue.push(run);
      run = 0;
    }
  }
  return { clue: Int32Array.from(clue), full };
}

/** A random placement of the clue (or a random picture's line), with each cell revealed with probability 1/3. */
function revealedCase(rng: Rng, cells: number, blocks: number, density: number | undefined): LineCase {
  if (density !== undefined) {
    const { clue, full } = pictureClue(rng, cells, density);
    return { clue, state: Uint8Array.from(full, (v) => (rng.nextBelow(3) === 0 ? v : UNKNOWN)) };
  }
  const clue = randomClue(rng, cells, blocks);
  let slack = cells - (blocks - 1);
  for (const b of clue) slack -= b;
  const full = new Uint8Array(cells).fill(EMPTY);
  let at = 0;
  for (let j = 0; j < blocks; j++) {
    const skip = rng.nextBelow(slack + 1);
    slack -= skip;
    at += skip;
    full.fill(FILLED, at, at + clue[j]!);
    at += clue[j]! + 1;
  }
  const state = new Uint8Array(cells);
  for (let i = 0; i < cells; i++) state[i] = rng.nextBelow(3) === 0 ? full[i]! : UNKNOWN;
  return { clue, state };
}

/** Random cells set to random values (a quarter of them), whatever the clue. */
function randomCase(rng: Rng, cells: number, blocks: number, density: number | undefined): LineCase {
  const clue = density === undefined ? randomClue(rng, cells, blocks) : pictureClue(rng, cells, density).clue;
  const state = new Uint8Array(cells);
  for (let i = 0; i < cells; i++) if (rng.nextBelow(4) === 0) state[i] = rng.nextBelow(2) === 0 ? FILLED : EMPTY;
  return { clue, state };
}

/** One task call solves every case once, on a scratch copy of its state. */
function lineTask(solver: LineSolver, cases: LineCase[], cells: number): () => void {
  const scratch = new Uint8Array(cells);
  return () => {
    for (const c of cases) {
      scratch.set(c.state);
      solver.solve(c.clue, scratch, cells);
    }
  };
}

const { values } = parseArgs({
  options: {
    cells: { type: 'string', default: '30' },
    blocks: { type: 'string', default: '5' },
    density: { type: 'string' },
    time: { type: 'string', default: '2000' },
  },
});
const cells = Number(values.cells);
const blocks = Number(values.blocks);
const density = values.density === undefined ? undefined : Number(values.density);
const CASES = 1000;
const rng = createRng(30_5);
const revealed = Array.from({ length: CASES }, () => revealedCase(rng, cells, blocks, density));
const random = Array.from({ length: CASES }, () => randomCase(rng, cells, blocks, density));

const bench = new Bench({ time: Number(values.time), warmup: true });
bench.add('exact, revealed', lineTask(new ExactLineSolver(), revealed, cells));
bench.add('exact, random', lineTask(new ExactLineSolver(), random, cells));
bench.add('exact tables, revealed', lineTask(new ExactLineSolver({ bitParallel: false }), revealed, cells));
bench.add('overlap, revealed', lineTask(new OverlapLineSolver(), revealed, cells));
bench.add('overlap, random', lineTask(new OverlapLineSolver(), random, cells));
await bench.run();

const room = revealed.reduce((sum, c) => sum + cells + 1 - c.clue.reduce((a, b) => a + b + 1, 0), 0) / CASES;
const shape = density === undefined ? `${blocks} blocks` : `lines of density ${density}`;
console.log(`line solvers: ${cells} cells, ${shape} (room for the blocks: ${room.toFixed(1)} cells on average), ${CASES} lines per call`);
for (const task of bench.tasks) {
  const r = task.result;
  if (!r || !('latency' in r)) continue;
  const meanMs = r.latency.mean;
  const perSecond = (CASES / meanMs) * 1000;
  console.log(
    `${task.name.padEnd(24)} ${(perSecond / 1e6).toFixed(2).padStart(6)} M solves/s  (${((meanMs * 1e6) / CASES).toFixed(0)} ns/solve, ±${r.latency.rme.toFixed(1)}%, ${r.latency.samplesCount} samples)`,
  );
}
