import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WatchLists } from '../../solvers/sat/engine/watch-lists.js';

/** The pairs of every list, read back from the flat buffer. */
function contents(w: WatchLists, lists: number): number[][] {
  return Array.from({ length: lists }, (_, lit) =>
    Array.from(w.buf.subarray(w.start[lit]!, w.start[lit]! + w.count[lit]!)),
  );
}

describe('WatchLists', () => {
  it('keeps every list intact through pairs and single words pushed, relocation, buffer growth and clearing', () => {
    const lists = 12;
    const op = fc.oneof(
      { weight: 20, arbitrary: fc.tuple(fc.nat(lists - 1), fc.integer(), fc.integer(), fc.boolean()) },
      { weight: 1, arbitrary: fc.constant('clear' as const) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), (ops) => {
        const w = new WatchLists(lists);
        const model: number[][] = Array.from({ length: lists }, () => []);
        for (const o of ops) {
          if (o === 'clear') {
            w.clear();
            model.forEach((l) => (l.length = 0));
          } else if (o[3]) {
            w.pushOne(o[0], o[1]);
            model[o[0]]!.push(o[1]);
          } else {
            w.push(o[0], o[1], o[2]);
            model[o[0]]!.push(o[1], o[2]);
          }
        }
        expect(contents(w, lists)).toEqual(model);
      }),
      { numRuns: 50 },
    );
  });

  it('lets a list be compacted in place by rewriting its count', () => {
    const w = new WatchLists(2);
    for (let i = 0; i < 10; i++) w.push(1, i, 100 + i);
    w.count[1] = 4; // keep the first two pairs, as propagation does when it drops watchers
    w.push(1, 99, -99);
    expect(contents(w, 2)[1]).toEqual([0, 100, 1, 101, 99, -99]);
  });
});
