import { describe, expect, it } from 'vitest';
import { EMPTY, FILLED, makePuzzle, UNKNOWN } from '../../corpus/model.js';
import { ClauseSink, ENCODING_STOPPED } from '../../solvers/sat/encodings/clause-sink.js';
import { encodeNonogramFlat, ENCODINGS } from '../../solvers/sat/encodings/encode.js';
import { encodeLineAutomaton } from '../../solvers/sat/encodings/line-automaton.js';
import { encodeLineBlocks } from '../../solvers/sat/encodings/line-blocks.js';

/**
 * One line of thousands of cells and blocks takes seconds to encode (a 1×5000 line of 1,250 ones:
 * 12.5 million clauses with `blocks`), while the encoder used to poll its stop check only between
 * lines. Counted here by clauses and polls, not by time.
 */
describe('the stop check inside one line encoding', () => {
  const encoders = { blocks: encodeLineBlocks, automaton: encodeLineAutomaton };
  /** A line of n cells clued with n/4 ones, and its cells' codes. */
  const line = (n: number, codes: (i: number) => number) => ({
    clue: Array<number>(n / 4).fill(1),
    cells: Int32Array.from({ length: n }, (_, i) => i + 1),
    codes: Uint8Array.from({ length: n }, (_, i) => codes(i)),
  });

  for (const encoding of ENCODINGS) {
    it(`${encoding}: a line of unknown cells stops within 2^16 clauses once the check fires`, () => {
      const { clue, cells, codes } = line(800, () => UNKNOWN);
      const full = new ClauseSink(cells.length);
      encoders[encoding](clue, cells, codes, full);
      expect(full.out.count).toBeGreaterThan(4 * (1 << 16)); // the whole line is far more

      let polls = 0;
      const stopped = new ClauseSink(cells.length, () => ++polls > 0);
      let thrown: unknown;
      try {
        encoders[encoding](clue, cells, codes, stopped);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBe(ENCODING_STOPPED);
      expect(polls).toBe(1);
      expect(stopped.out.count).toBeLessThanOrEqual(1 << 16);
    });

    it(`${encoding}: a known line, which emits few clauses, still counts its automaton's nodes towards the check`, () => {
      // Every cell known: a few clauses per cell, but n × (n/2 + 1) nodes to visit.
      const { clue, cells, codes } = line(2000, (i) => (i % 4 === 0 ? FILLED : EMPTY));
      const full = new ClauseSink(cells.length);
      encoders[encoding](clue, cells, codes, full);
      expect(full.out.count).toBeLessThan(1 << 16);

      let polls = 0;
      const watched = new ClauseSink(cells.length, () => (polls++, false));
      encoders[encoding](clue, cells, codes, watched);
      expect(watched.out.count).toBe(full.out.count); // a check that never fires changes nothing
      expect(polls).toBeGreaterThanOrEqual(10);
    });
  }

  it('encodeNonogramFlat polls within a long line, gives up with undefined, and encodes as before when the check never fires', () => {
    const n = 480;
    const ones = Array<number>(n / 4).fill(1);
    // Two rows of n/4 ones; every column a 1 where one of the two rows has its block (rows alternate).
    const puzzle = makePuzzle(
      [ones.slice(), ones.slice()],
      Array.from({ length: n }, (_, c) => (c % 4 === 0 || c % 4 === 2 ? [1] : [0])),
    );
    const lines = puzzle.height + puzzle.width;
    let polls = 0;
    const cnf = encodeNonogramFlat(puzzle, { encoding: 'blocks', shouldStop: () => (polls++, false) })!;
    expect(polls).toBeGreaterThan(lines); // once per line, and within the two long rows
    expect(encodeNonogramFlat(puzzle, { encoding: 'blocks', shouldStop: () => true })).toBeUndefined();
    const plain = encodeNonogramFlat(puzzle, { encoding: 'blocks' })!;
    expect(cnf.clauses.count).toBe(plain.clauses.count);
    const used = plain.clauses.ends[plain.clauses.count - 1]!;
    expect(Buffer.from(cnf.clauses.lits.buffer, 0, used * 4).equals(Buffer.from(plain.clauses.lits.buffer, 0, used * 4))).toBe(true);
  });
});
