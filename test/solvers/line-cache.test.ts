import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CACHE_HIT, CACHE_IMPOSSIBLE, CACHE_MISS, SetLineCache } from '../../solvers/line/line-cache.js';

describe('the cache of lines held as bit sets', () => {
  it('returns what was stored for the same line and key, grows, and forgets only by emptying itself', () => {
    let resets = 0;
    let grown = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer(), (setWords, seed) => {
        const words = 2 * setWords;
        // Room to grow once (from 4096 slots to 8192), then to be emptied a few times.
        const cache = new SetLineCache(setWords, (1 + 2 * words) << 13);
        const model = new Map<string, number[] | null>();
        let random = seed | 1;
        const next = () => {
          random ^= random << 13;
          random ^= random >>> 17;
          random ^= random << 5;
          return random >>> 0;
        };
        // Keys that differ in few bits of few words, so that they crowd the same slots, and keys met again.
        const recent: [number, Int32Array][] = [];
        const keyOf = (): [number, Int32Array] => {
          if (recent.length > 0 && next() % 2 === 0) return recent[next() % recent.length]!;
          const key = new Int32Array(words);
          key[next() % words] = next() & 0x7fffffff;
          key[next() % words] = next() % 64;
          const made: [number, Int32Array] = [next() % 5, key];
          recent[recent.length < 512 ? recent.length : next() % 512] = made;
          return made;
        };
        const out = new Int32Array(words);
        const wrong: string[] = [];
        let hits = 0;
        let seen = 0;
        let most = 0;
        for (let step = 0; step < 12_000; step++) {
          const [line, key] = keyOf();
          const name = `${line}:${key.join(',')}`;
          const found = cache.lookup(line, key, out);
          if (found === CACHE_MISS) {
            if (model.has(name)) wrong.push(`step ${step}, ${name}: forgotten though the cache was not emptied`);
            const result = next() % 4 === 0 ? null : Int32Array.from({ length: words }, () => next() & 0x7fffffff);
            cache.store(line, key, result);
            // Emptied to make room: only the key just stored is left.
            if (cache.resets > seen) model.clear();
            seen = cache.resets;
            model.set(name, result && [...result]);
            most = Math.max(most, model.size);
            continue;
          }
          hits++;
          const stored = model.get(name);
          const right =
            stored === null ? found === CACHE_IMPOSSIBLE : stored !== undefined && found === CACHE_HIT && stored.every((word, i) => out[i] === word);
          if (!right) wrong.push(`step ${step}, ${name}: ${found} [${[...out]}] where ${stored === undefined ? 'nothing' : `[${stored}]`} was stored`);
        }
        expect(wrong).toEqual([]);
        expect(hits).toBeGreaterThan(1000);
        resets += cache.resets;
        // 4096 slots hold 2048 keys before the table grows (or empties).
        if (most > 2048) grown++;
      }),
      { numRuns: 12 },
    );
    expect(resets).toBeGreaterThan(0);
    expect(grown).toBeGreaterThan(0);
  });
});
