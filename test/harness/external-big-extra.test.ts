import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-extra');
requireBuiltCli();

describe('a json program whose extra is tens of MiB', () => {
  it('is an error row that names the size, and the solver run beside it is measured, not held up into a timeout', () => {
    const d = dir();
    // The right answer to webpbn #1, with 10 Mi quotes in extra (20 MiB on stdout, within the 64 MiB allowed).
    const program = executable(
      d,
      'big-extra.py',
      `#!/usr/bin/env python3
import json, sys
g = "01100011010010101110101001010000110010100101111000"
rows = ["".join("#" if c == "1" else "." for c in g[r * 5:r * 5 + 5]) for r in range(10)]
sys.stdout.write('{"status": "unique", "grid": ' + json.dumps(rows) + ', "extra": {"q": "' + '\\\\"' * (10 << 20) + '"}}\\n')
`,
    );
    // One worker: cadical's task starts while the big row is recorded.
    const r = runDefinitionIn(
      d,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: big, command: "${program}", input: non, output: json }
  - { name: cadical, command: "cadical -q {cnf}", input: cnf, output: dimacs-model }
timeout: 2
`,
      '--workers',
      '1',
    );
    const rows = Object.fromEntries(r.rows().map((row) => [row.config, [row.status, row.error]]));
    expect(rows).toEqual({
      big: ['error', expect.stringMatching(/^strategy returned metrics\.extra of \d+ characters as JSON, more than the 65536 a row holds$/)],
      cadical: ['unique', ''],
    });
    expect(r.code).toBe(1);
  }, 120_000);
});
