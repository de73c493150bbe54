import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { beforeAll } from 'vitest';

/** The built CLI: tests that run it need `npm run build` first (tsc alone leaves the bundled CLI as it was). */
export const CLI = 'dist/harness/cli.js';

/** Fails the calling test file at once when the CLI has not been built. */
export function requireBuiltCli(): void {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (npm run build)`);
  });
}

/** Runs `nonobench ARGS…` and returns its exit code and output. */
export function runCli(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** runCli without blocking the test's thread, for runs that should overlap. */
export function runCliAsync(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) =>
    execFile(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, out: stdout, err: stderr }),
    ),
  );
}
