import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { DANCER_ROWS, executable } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-tmp');
requireBuiltCli();

describe('a program that removes the folder its scratch folder is in', () => {
  it("makes the later external tasks error rows that say why, and the run goes on to its end", () => {
    const d = dir();
    const tmp = join(d, 'tmp');
    mkdirSync(tmp);
    const dancer = DANCER_ROWS.join('\\n');
    // It answers, then cleans up carelessly: its folder's parent is the harness's TMPDIR.
    const program = executable(d, 'clean-up.sh', `#!/bin/sh\nprintf '${dancer}\\nunique\\n'\nrm -rf "$(dirname "$PWD")"\n`);
    const file = join(d, 'bench.yaml');
    writeFileSync(
      file,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}, ${resolve('corpus/puzzles/webpbn/21.non')}]
configurations:
  - strategy: sat
  - { name: clean-up, command: "${program}", input: non, output: grid }
timeout: 5
warmup: 0
`,
    );
    const out = join(d, 'run.csv');
    const r = spawnSync(process.execPath, [CLI, 'run', '--config', file, '--out', out, '--quiet', '--workers', '1'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, TMPDIR: tmp },
    });
    expect(r.stderr).not.toMatch(/^nonobench: ENOENT/m);
    expect(r.status).toBe(1);
    const rows = parseCsv(readFileSync(out, 'utf8')).records.map((row) => [row.config, row.status, row.error]);
    expect(rows).toEqual([
      ['sat', 'unique', ''],
      ['clean-up', 'unique', ''],
      ['sat', 'unique', ''],
      ['clean-up', 'error', expect.stringMatching(/^could not run .*clean-up\.sh: ENOENT: no such file or directory, mkdtemp/)],
    ]);
  });
});
