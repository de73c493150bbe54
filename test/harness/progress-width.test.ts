import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createProgress, formatEta, progressLine, type ProgressState } from '../../harness/run/progress.js';

/** A state with counts up to the total (up to 10^7), any rate and ETA. */
const states = fc
  .integer({ min: 1, max: 10 ** 7 })
  .chain((total) =>
    fc.record({
      total: fc.constant(total),
      done: fc.integer({ min: 0, max: total }),
      timeouts: fc.integer({ min: 0, max: total }),
      errors: fc.integer({ min: 0, max: total }),
      rate: fc.oneof(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constantFrom(Infinity, NaN)),
      etaS: fc.oneof(fc.double({ min: 0, max: 360_000, noNaN: true }), fc.double({ min: 0, max: 1e9, noNaN: true }), fc.constantFrom(Infinity, NaN, -1)),
    }),
  );

/** Every count the line must show in full, whatever its layout. */
function expectCounts(line: string, s: ProgressState): void {
  expect(line).toContain(`${s.done}/${s.total}`);
  expect(line).toMatch(new RegExp(`(timeouts|t/o) ${s.timeouts}( |$)`));
  expect(line).toMatch(new RegExp(`(errors|err) ${s.errors}$`));
}

/** A terminal as cli-progress uses it: writes (text and escape sequences) and a width. */
function fakeTerminal(columns: number) {
  const writes: string[] = [];
  const stream = { isTTY: true, columns, write: (chunk: string) => writes.push(String(chunk)) > 0 } as unknown as NodeJS.WriteStream;
  // What the bar drew: its writes without the cursor and line escapes.
  const lines = () => writes.map((w) => w.replace(/\x1b(\[[?0-9;]*[A-Za-z]|[78])/g, '')).filter((w) => w.trim() !== '');
  return { stream, lines };
}

describe('progress line width', () => {
  it('fits the terminal with every count, for totals up to 10^7 and widths from 44 columns', () => {
    fc.assert(
      fc.property(states, fc.oneof(fc.integer({ min: 44, max: 120 }), fc.integer({ min: 44, max: 400 })), (s, width) => {
        const line = progressLine(s, width, true);
        expect(line.length).toBeLessThan(width);
        expectCounts(line, s);
      }),
    );
  });

  it('keeps the full labels and a bar in 80 columns for a run of the usual size', () => {
    const line = progressLine({ done: 523, total: 1735, rate: 28.34, etaS: 43.2, timeouts: 2, errors: 1 }, 80, true);
    // The count padded to the total's width, so that the line does not shift as it grows.
    expect(line).toMatch(/^solving \[=+-+\]  523\/1735 \| 28\/s \| ETA 44s \| timeouts 2 \| errors 1$/);
    expect(line.length).toBeLessThan(80);
    // The bar keeps its width as the count, rate and ETA change.
    const barOf = (l: string) => /\[([=-]+)\]/.exec(l)![1]!.length;
    const later = progressLine({ done: 1700, total: 1735, rate: 1234.5, etaS: 3599, timeouts: 2, errors: 1 }, 80, true);
    expect(barOf(later)).toBe(barOf(line));
    // A rate or an ETA wider than usual narrows the bar instead.
    for (const rate of [5e7, 5e12]) expect(progressLine({ done: 5, total: 1735, rate, etaS: 3599, timeouts: 2, errors: 1 }, 80, true).length).toBeLessThan(80);
  });

  it('writes log lines under 80 columns that start with "solving done/total ("', () => {
    fc.assert(
      fc.property(states, (s) => {
        const line = progressLine(s, 80, false);
        expect(line.length).toBeLessThan(80);
        expect(line.startsWith(`solving ${s.done}/${s.total} (`)).toBe(true);
        expectCounts(line, s);
      }),
    );
  });

  it('formats the ETA in at most 6 characters', () => {
    expect([0, 0.2, 59, 61, 3599, 3600, 7500, 360_000].map(formatEta)).toEqual(['0s', '1s', '59s', '1m01s', '59m59s', '1h00m', '2h05m', '>99h']);
    fc.assert(
      fc.property(fc.double({ min: -10, max: 1e12 }), (s) => {
        expect(formatEta(s).length).toBeLessThanOrEqual(6);
      }),
    );
  });

  for (const columns of [80, 50]) {
    it(`draws cli-progress's bar within a ${columns}-column terminal`, () => {
      const { stream, lines } = fakeTerminal(columns);
      const total = 10 ** 7;
      const progress = createProgress(total, stream, false);
      for (const n of [1, 2, 3]) progress.tick({ timeouts: n * 1_234_567, errors: n * 2_345_678 });
      progress.stop();
      const drawn = lines();
      expect(drawn.length).toBeGreaterThan(0);
      for (const line of drawn) expect(line.replace(/\n$/, '').length).toBeLessThan(columns);
      expect(drawn.at(-1)).toMatch(new RegExp(`3/${total} .*(timeouts|t/o) 3703701 .*(errors|err) 7037034`));
    });
  }
});
