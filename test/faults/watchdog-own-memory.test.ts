import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('watchdog-own');
requireBuiltCli();

// A plugin that spins 1 s without polling (so it reports nothing) and holds nothing.
const SPIN = `export default {
  name: 'spin',
  description: 'spins without polling',
  solve(puzzle) {
    const until = performance.now() + 1000;
    while (performance.now() < until);
    return { status: 'stuck', grid: new Uint8Array(puzzle.width * puzzle.height), solutions: [], metrics: { deadEnds: 0, decisions: 0, lineSolves: 0, maxDepth: 0, extra: {} } };
  },
};
`;

// In a child process: the memory taken is its own. While the task spins, the harness's own thread takes
// 400 MiB (as it does writing a large puzzle's CNF for an external solver): more than the pool's budget.
const script = (plugin: string) => `
import { SolverPool } from ${JSON.stringify(resolve('dist/harness/run/pool.js'))};
const pool = new SolverPool({ workers: 1, memoryMb: 16, sharedAtStart: false });
const puzzle = { id: 'p', width: 1, height: 1, rows: [[1]], columns: [[1]], meta: {} };
const running = pool.run({ puzzle, strategySpec: ${JSON.stringify(plugin)}, maxSolutions: 2, timeoutMs: 20000, warmup: 0, params: {} });
await new Promise((done) => setTimeout(done, 300));
const own = Buffer.alloc(400 << 20, 1);
const outcome = await running;
console.log(JSON.stringify([outcome.kind, outcome.message ?? outcome.reply?.result?.status, own.length]));
await pool.close();
`;

it("the watchdog does not stop a silent task for memory the harness's own thread took", () => {
  const d = dir();
  const plugin = join(d, 'spin.mjs');
  writeFileSync(plugin, SPIN);
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script(plugin)], { encoding: 'utf8', timeout: 30_000 });
  expect([child.stderr, JSON.parse(child.stdout)]).toEqual(['', ['done', 'stuck', 400 << 20]]);
}, 30_000);
