import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNon } from '../../corpus/formats/non.js';
import { AdapterError, readAnswer } from '../../harness/external/adapters.js';
import { INLINE_LENGTH, readAnswerAside } from '../../harness/external/read-answer.js';
import { runExternalTask } from '../../harness/external/run-external.js';
import { resolveExternal } from '../../harness/external/spec.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { DANCER_ROWS, executable } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-read-aside');
// The reading thread runs the built module.
requireBuiltCli();
const file = resolve('corpus/puzzles/webpbn/1.non');
const puzzle = parseNon(readFileSync(file, 'utf8'), file)[0]!;

/** What `f` settles to: its value, or the AdapterError's message. */
const settled = async (f: () => unknown) => {
  try {
    return { answer: await f() };
  } catch (err) {
    if (err instanceof AdapterError) return { adapterError: err.message };
    throw err;
  }
};

describe("an external solver's long output", () => {
  it("is read off the harness's thread: a flood of short lines does not stop its timers", async () => {
    const d = dir();
    // 12 million lines: seconds of the grid adapter's reading, which held up every timer of the harness's thread.
    const flood = executable(d, 'flood.sh', '#!/bin/sh\nyes c | head -c 25165824\n');
    const solver = resolveExternal({ command: flood, input: 'non', output: 'grid' });
    let last = performance.now();
    let maxGapMs = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - last);
      last = now;
    }, 10);
    try {
      const outcome = await runExternalTask({ puzzle, solver, maxSolutions: 2, timeoutMs: 20_000, hardLimitMs: 26_000, memoryMb: 2048 });
      expect([outcome.kind, outcome.kind === 'error' && outcome.message]).toEqual(['error', 'unreadable output: no grid and no status word in the output']);
    } finally {
      // One more tick, to see a gap that ended with the task.
      await new Promise((next) => setTimeout(next, 50));
      clearInterval(tick);
    }
    expect(maxGapMs).toBeLessThan(1000);
  }, 60_000);

  it('reads in the thread as it reads at once: the same answers and the same refusals', async () => {
    const padding = `c ${'x'.repeat(78)}\n`.repeat(Math.ceil(INLINE_LENGTH / 80) + 10);
    const grid = `${DANCER_ROWS.join('\n')}\n`;
    const texts = [padding + grid + 'unique\n', padding + grid + grid, padding + '0110\n'.repeat(10), padding, grid + padding + 'multiple\n', '\u00ff'.repeat(INLINE_LENGTH) + grid];
    const json = `{"status":"unique","grid":${JSON.stringify(DANCER_ROWS)}}\n`;
    for (const text of texts) {
      for (const request of [
        { adapter: 'grid', text, puzzle, maxGrids: 2 },
        { adapter: 'json', text: text + json, puzzle },
      ] as const) {
        const bytes = Buffer.from(request.text, 'utf8');
        expect(bytes.length).toBeGreaterThan(INLINE_LENGTH);
        const aside = await settled(() => readAnswerAside({ ...request, text: bytes }));
        const atOnce = await settled(() => readAnswer(request));
        expect(aside).toEqual(atOnce);
      }
    }
  }, 30_000);
});
