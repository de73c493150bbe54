import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('bench-async');
requireBuiltCli();

/** A plugin module named `name` whose solve has the given body (puzzle `p`; `result()` is a valid 'stuck' answer). */
function plugin(d: string, name: string, solve: string): string {
  const file = join(d, `${name}.mjs`);
  writeFileSync(
    file,
    `const result = (p) => ({ status: 'stuck', grid: new Uint8Array(p.width * p.height), solutions: [], metrics: { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} } });\n` +
      `export default { name: '${name}', description: 'bench test plugin', ${solve} };\n`,
  );
  return file;
}

describe('nonobench bench with plugin strategies', () => {
  it('times an async solve until its Promise settles, and a synchronous one alone', () => {
    const d = dir();
    const slow = plugin(d, 'slow-async', 'async solve(p) { await new Promise((r) => setTimeout(r, 20)); return result(p); }');
    const quick = plugin(d, 'quick-sync', 'solve(p) { return result(p); }');
    const out = join(d, 'bench.csv');
    const r = runCli('bench', '--strategies', `${slow},${quick}`, '--time', '20', '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    const mean = (strategy: string) => rows.filter((row) => String(row.name).startsWith(`${strategy} `)).map((row) => Number(row.mean_ms));
    expect(mean('slow-async')).toHaveLength(5);
    for (const ms of mean('slow-async')) expect(ms).toBeGreaterThanOrEqual(15);
    expect(mean('quick-sync')).toHaveLength(5);
    for (const ms of mean('quick-sync')) expect(ms).toBeLessThan(5);
  });

  // A strategy that fails is a failed solve (exit 1, as an `error` row of `run`), not bad input (2).
  it('reports a solve that rejects in one line, exit code 1, no figures', () => {
    const d = dir();
    const failing = plugin(d, 'rejecting', "async solve() { await new Promise((r) => setTimeout(r, 1)); throw new Error('no luck'); }");
    const out = join(d, 'bench.csv');
    const r = runCli('bench', '--strategies', failing, '--time', '20', '--out', out);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^nonobench: bench "rejecting .+" failed: no luck\n$/);
    expect(r.out).toBe('');
  });

  it('reports a wrong answer in one line, exit code 1 (a wrong solve, as a `wrong` row of `run`), no CSV', () => {
    const d = dir();
    const wrong = plugin(d, 'all-filled', "solve(p) { const g = new Uint8Array(p.width * p.height).fill(1); return { ...result(p), status: 'unique', grid: g, solutions: [g] }; }");
    const out = join(d, 'bench.csv');
    const r = runCli('bench', '--strategies', wrong, '--time', '20', '--out', out);
    expect([r.code, r.out]).toEqual([1, '']);
    expect(r.err).toMatch(/^nonobench: bench "all-filled .+" failed: wrong answer: solution 1 fails: /);
    expect(existsSync(out)).toBe(false);
  });
});

describe('nonobench bench measures only right answers, at the rate they ran', () => {
  const webpbn1 = async () => {
    const { loadPuzzle } = await import('../../corpus/load.js');
    const { BUNDLED_CORPUS } = await import('../../corpus/paths.js');
    return loadPuzzle(join(BUNDLED_CORPUS, 'webpbn/1.non'));
  };
  const metrics = { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} };

  it("gives ops/s as the rate the solves ran at, 1000 / mean ms, not the mean of each sample's own rate", async () => {
    const { runBenchmarks } = await import('../../harness/bench/micro.js');
    const puzzle = await webpbn1();
    let calls = 0;
    // One solve in ten takes 2 ms, the rest 0.05 ms: the mean of 1000/latency would be about four times 1000/mean.
    const uneven = {
      name: 'uneven',
      description: 'busy-waits, unevenly',
      solve: (p: typeof puzzle) => {
        const end = performance.now() + (calls++ % 10 === 0 ? 2 : 0.05);
        while (performance.now() < end);
        return { status: 'stuck' as const, grid: new Uint8Array(p.width * p.height), solutions: [], metrics };
      },
    };
    const rows = await runBenchmarks({ strategies: [uneven], timeMs: 40, solveTimeoutMs: 1000, puzzles: [puzzle] });
    for (const row of rows) expect({ name: row.name, rate: (Number(row.ops_per_s) * Number(row.mean_ms)) / 1000 }).toEqual({ name: row.name, rate: expect.closeTo(1, 2) });
  });

  it('refuses to time a strategy whose answer is wrong or malformed, naming the benchmark and the problem', async () => {
    const { runBenchmarks } = await import('../../harness/bench/micro.js');
    const puzzle = await webpbn1();
    const allFilled = {
      name: 'all-filled',
      description: 'claims the all-filled grid is the unique solution',
      solve: (p: typeof puzzle) => {
        const grid = new Uint8Array(p.width * p.height).fill(1);
        return { status: 'unique' as const, grid, solutions: [grid], metrics };
      },
    };
    const noResult = { name: 'no-result', description: 'returns a number', solve: () => 42 as never };
    const bench = (strategy: object) => runBenchmarks({ strategies: [strategy as never], timeMs: 5, solveTimeoutMs: 1000, puzzles: [puzzle] });
    await expect(bench(allFilled)).rejects.toThrow(/^bench "all-filled .+" failed: wrong answer: solution 1 fails: /);
    await expect(bench(noResult)).rejects.toThrow(/^bench "no-result .+" failed: wrong answer: strategy returned no result object$/);
  });
});
