import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

// Run in a child process: the failure this guards against aborts the whole process.
const SCRIPT = `
import { SolverPool } from ${JSON.stringify(resolve('dist/harness/run/pool.js'))};
for (let delayMs = 0; delayMs <= 120; delayMs += 2) {
  const pool = new SolverPool({ workers: 2, memoryMb: 256 });
  await new Promise((done) => setTimeout(done, delayMs));
  await pool.close();
}
console.log('closed every pool');
`;

it('survives being closed while its threads are still loading the worker module', () => {
  // Closing 0–120 ms after start, every 2 ms, sweeps the window (tens of ms) in which the threads load their module.
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { encoding: 'utf8', timeout: 60_000 });
  expect(child.stderr).not.toMatch(/FATAL ERROR/);
  expect(child.stdout).toContain('closed every pool');
  expect(child.status).toBe(0);
}, 90_000);
