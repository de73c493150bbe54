import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-extra');
requireBuiltCli();

describe('a json program whose extra is tens of MiB', () => {
  it('is an error row that names the size, and the solver run beside it is measured, not held up into a timeout', () => {
    const d = dir();
    const program = join(d, 'big-extra.py');
    // The right answer to webpbn #1, with 10 Mi quotes in extra (20 MiB on stdout, within the 64 MiB allowed).
    writeFileSync(
      program,
      `#!/usr/bin/env python3
import json, sys
g = "01100011010010101110101001010000110010100101111000"
rows = ["".join("#" if c == "1" else "." for c in g[r * 5:r * 5 + 5]) for r in range(10)]
sys.stdout.write('{"status": "unique", "grid": ' + json.dumps(rows) + ', "extra": {"q": "' + '\\\\"' * (10 << 20) + '"}}\\n')
`,
    );
    chmodSync(program, 0o755);
    const file = join(d, 'bench.yaml');
    // One worker: cadical's task starts while the big row is recorded.
    writeFileSync(
      file,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: big, command: "${program}", input: non, output: json }
  - { name: cadical, command: "cadical -q {cnf}", input: cnf, output: dimacs-model }
timeout: 2
`,
    );
    const out = join(d, 'run.csv');
    const r = runCli('run', '--config', file, '--out', out, '--quiet', '--workers', '1');
    const rows = Object.fromEntries(parseCsv(readFileSync(out, 'utf8')).records.map((row) => [row.config, [row.status, row.error]]));
    expect(rows).toEqual({
      big: ['error', expect.stringMatching(/^strategy returned metrics\.extra of \d+ characters as JSON, more than the 65536 a row holds$/)],
      cadical: ['unique', ''],
    });
    expect(r.code).toBe(1);
  }, 120_000);
});
