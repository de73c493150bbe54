import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const dir = tempDirs('heap-guard');

describe('a corpus larger than memory', () => {
  it('ends the load with one line at the file and line, exit 2, where V8 aborted the process (solve and run)', () => {
    // A million 1×1 tournament puzzles (11 MB) in a heap of 256 MiB: V8's out-of-memory abort, before.
    const file = join(dir(), 'many.txt');
    writeFileSync(file, Array.from({ length: 1_000_000 }, (_, i) => `$${i + 1}\n0\n0\n`).join(''));
    for (const args of [['solve', file, '-s', 'overlap'], ['run', file, '-s', 'overlap', '--quiet', '--out', join(dir(), 'run.csv')]]) {
      const r = spawnSync(process.execPath, ['--max-old-space-size=256', CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
      expect([r.status, r.signal], args[0]).toEqual([2, null]);
      expect(r.stderr, args[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: more puzzles than memory holds \\(the heap is \\d+% of its \\d+ MiB limit here\\): load a part \\(FILE#FIRST-LAST\\)[^\\n]*\\n$`));
    }
  });
});
