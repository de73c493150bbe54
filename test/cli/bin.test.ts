import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../helpers/cli.js';

requireBuiltCli();

describe('the nonobench bin', () => {
  it('runs as a program of its own (what npx nonobench and an installed bin do), not only through node', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string>; version: string };
    expect(pkg.bin.nonobench).toBe(CLI);
    const r = spawnSync(`./${CLI}`, ['--version'], { encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect([r.status, r.stdout.trim()]).toEqual([0, pkg.version]);
  });
});
