import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { createRng } from '../../corpus/random.js';
import { loadPuzzle } from '../../corpus/load.js';
import { EMPTY, FILLED, UNKNOWN, type Puzzle } from '../../corpus/model.js';
import { loadStrategy } from '../../solvers/strategies/registry.js';
import { recordSolve, replayableStrategies } from '../../harness/replay/record.js';
import { replayPage, REPLAY_DATA_ID } from '../../harness/replay/page.js';
import { DECIDED_BY_GUESS, DECIDED_BY_LEARNING, DECIDED_BY_LINE, DECIDED_BY_PROBE, STEP } from '../../harness/replay/recorder.js';
import type { SolveResult } from '../../solvers/api/types.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const dir = tempDirs('replay')();

/** The steps a page holds, decoded as the player decodes them. */
function pageData(html: string) {
  const block = new RegExp(`<script type="application/json" id="${REPLAY_DATA_ID}">(.*?)</script>`, 's').exec(html);
  expect(block).not.toBeNull();
  const d = JSON.parse(block![1]!);
  const buf = (b64: string) => {
    const b = Buffer.from(b64, 'base64');
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  };
  return {
    ...d,
    kind: new Uint8Array(buf(d.kind)),
    info: new Uint8Array(buf(d.info)),
    codes: new Uint8Array(buf(d.codes)),
    arg: new Int32Array(buf(d.arg)),
    depth: new Uint16Array(buf(d.depth)),
    end: new Uint32Array(buf(d.end)),
    cells: d.cellBytes === 2 ? new Uint16Array(buf(d.cells)) : new Uint32Array(buf(d.cells)),
  };
}

type Data = ReturnType<typeof pageData>;

/**
 * Plays the steps in order and checks each against what its kind means; returns the final grid's
 * values. `truth`, when given, is a solution: every cell decided outside any guess must agree with
 * it, until a first solution is met (after it, what clause learning proves holds in the others).
 */
function playChecked(d: Data, truth?: Uint8Array): Uint8Array {
  const { width: W, height: H } = d;
  const grid = new Uint8Array(W * H);
  const n = d.kind.length;
  for (let s = 0; s < n; s++) {
    const from = s === 0 ? 0 : d.end[s - 1]!;
    const cells = Array.from(d.cells.subarray(from, d.end[s]!));
    const codes = Array.from(d.codes.subarray(from, d.end[s]!));
    const kind = d.kind[s]!;
    const arg = d.arg[s]!;
    const where = `step ${s} (kind ${kind})`;
    if (kind === STEP.backtrack) {
      expect(codes.every((c) => c === UNKNOWN), where).toBe(true);
      expect(cells.every((c) => grid[c] !== UNKNOWN), where).toBe(true);
    } else if (kind !== STEP.result || d.omitted === 0) {
      // Nothing known is ever overwritten but by a backtrack (or the result step after a cap).
      expect(cells.every((c) => grid[c] === UNKNOWN), where).toBe(true);
      expect(codes.every((c) => (c & 3) !== UNKNOWN), where).toBe(true);
    }
    if (kind === STEP.line) {
      const onLine = (c: number) => (arg < H ? Math.floor(c / W) === arg : c % W === arg - H);
      expect(cells.every(onLine), where).toBe(true);
      expect(codes.every((c) => (c & 12) === DECIDED_BY_LINE), where).toBe(true);
    }
    if (kind === STEP.guess) {
      expect(cells, where).toEqual([arg]);
      expect(codes[0]! & 12, where).toBe(DECIDED_BY_GUESS);
      expect(d.depth[s], where).toBeGreaterThan(0);
    }
    if (kind === STEP.learnt) {
      expect(codes.every((c) => (c & 12) === DECIDED_BY_LEARNING), where).toBe(true);
      expect(d.depth[s], where).toBe(0);
    }
    if (kind === STEP.found) expect(cells, where).toEqual([]);
    if (kind === STEP.solution || kind === STEP.found) truth = undefined;
    if (kind === STEP.probe) {
      expect(codes.every((c) => (c & 12) === DECIDED_BY_PROBE), where).toBe(true);
      const filledOk = (d.info[s]! & 1) !== 0;
      const emptyOk = (d.info[s]! & 2) !== 0;
      if (filledOk !== emptyOk) expect(cells.map((c, i) => [c, codes[i]! & 3]), where).toEqual([[arg, filledOk ? FILLED : EMPTY]]);
    }
    cells.forEach((c, i) => (grid[c] = codes[i]! & 3));
    if (truth && d.depth[s] === 0 && kind !== STEP.result)
      for (const c of cells) if (grid[c] !== UNKNOWN) expect(grid[c], `${where}: cell ${c} decided at depth 0`).toBe(truth[c]);
  }
  return grid;
}

async function recorded(puzzle: Puzzle, strategy: string, params = {}, maxSteps?: number) {
  const solve = await recordSolve(await loadStrategy(strategy), puzzle, { maxSolutions: 2, timeoutMs: 0, params, ...(maxSteps ? { maxSteps } : {}) });
  const html = replayPage({ puzzle, strategy, result: solve.result, steps: solve.steps, maxSteps: maxSteps ?? 20_000 });
  return { ...solve, html, data: pageData(html) };
}

const solutionOf = (r: SolveResult) => r.solutions[0];

const randomPuzzle = fc
  .record({ width: fc.integer({ min: 2, max: 12 }), height: fc.integer({ min: 2, max: 12 }), seed: fc.integer({ min: 1, max: 2 ** 31 }) })
  .map(({ width, height, seed }) => generateRandomPuzzle(width, height, 0.5, createRng(seed)));

describe('solve --replay', () => {
  it('records the real solve: replayed in order, every step means what its kind says and the end is the solver’s final grid', async () => {
    await fc.assert(
      fc.asyncProperty(randomPuzzle, fc.constantFrom('backtrack', 'probe', 'overlap'), fc.boolean(), async (puzzle, strategy, probing) => {
        const { result, steps, data } = await recorded(puzzle, strategy, strategy === 'overlap' ? {} : { probing });
        expect(steps.omitted).toBe(0);
        expect(playChecked(data, solutionOf(result))).toEqual(result.grid);
        const count = (k: number) => data.kind.filter((x: number) => x === k).length;
        expect(count(STEP.guess)).toBe(result.metrics.decisions);
        expect(count(STEP.backtrack)).toBe(result.metrics.decisions);
        expect(count(STEP.result)).toBe(1);
      }),
      { numRuns: 40 },
    );
  });

  it('records auto: clause learning\'s fixed cells and solutions are steps of their own, and the end is the final grid', async () => {
    // Random 30×30 puzzles: on 087 clause learning fixes cells for the search, which settles it; on
    // 026 clause learning finds the solutions.
    for (const [name, kind] of [['087', STEP.learnt], ['026', STEP.found]] as const) {
      const puzzle = loadPuzzle(`corpus/puzzles/generated/30x30/${name}.non`);
      const { result, data } = await recorded(puzzle, 'auto');
      expect(result.status).toBe('multiple');
      const count = (k: number) => data.kind.filter((x: number) => x === k).length;
      expect(count(kind), name).toBeGreaterThan(0);
      expect(count(STEP.guess)).toBe(result.metrics.extra.searchDecisions);
      expect(playChecked(data, solutionOf(result))).toEqual(result.grid);
    }
  });

  it('caps a long search, says how many steps it left out, and still ends on the final grid', async () => {
    const puzzle = loadPuzzle('corpus/puzzles/webpbn/23.non');
    const { result, steps, data, html } = await recorded(puzzle, 'backtrack', { probing: false }, 50);
    expect(steps.omitted).toBeGreaterThan(0);
    expect(data.kind.length).toBe(51);
    expect(data.kind[50]).toBe(STEP.result);
    expect(data.arg[50]).toBe(steps.omitted);
    expect(html).toContain(`the first 50 steps are recorded, the ${steps.omitted} after them are left out`);
    expect(playChecked(data, solutionOf(result))).toEqual(result.grid);
  });

  it('writes #65 "Mum" as one self-contained page: nothing to fetch, the one script allowed by its hash, the goal at the end', () => {
    const file = join(dir, 'sub', 'mum.html');
    const { code, out } = runCli('solve', 'corpus/puzzles/webpbn/65.non', '--replay', file);
    expect(code).toBe(0);
    expect(out).toMatch(/^replay: \d+ steps in .*mum\.html$/m);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/\b(src|href)\s*=|url\(|@import|https?:/i);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
    for (const id of ['board', 'play', 'back', 'forward', 'first', 'last', 'slider', 'speed', 'counter', 'description'])
      expect(html).toContain(`id="${id}"`);
    const puzzle = loadPuzzle('corpus/puzzles/webpbn/65.non');
    expect(playChecked(pageData(html), puzzle.goal)).toEqual(puzzle.goal);
  });

  it('refuses a strategy that does not report its steps, in one line naming those that do, and writes nothing', () => {
    expect(replayableStrategies()).toEqual(['overlap', 'backtrack', 'probe', 'auto']);
    const file = join(dir, 'sat.html');
    const { code, err } = runCli('solve', 'corpus/puzzles/webpbn/1.non', '-s', 'sat', '--replay', file);
    expect(code).toBe(2);
    expect(err.split('\n')[0]).toBe('nonobench: --replay: strategy sat does not report its steps (these do: overlap, backtrack, probe, auto)');
    expect(existsSync(file)).toBe(false);
    // A plugin is refused without being imported into the command's thread.
    const plugin = runCli('solve', 'corpus/puzzles/webpbn/1.non', '-s', 'test/fixtures/plugins/trivial-solver.mjs', '--replay', file);
    expect(plugin.code).toBe(2);
    expect(plugin.err.split('\n')[0]).toBe('nonobench: --replay: strategy test/fixtures/plugins/trivial-solver.mjs does not report its steps (these do: overlap, backtrack, probe, auto)');
  });
});
