import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNon } from '../../corpus/formats/non.js';
import { generateRandomPuzzle } from '../../corpus/generate.js';
import { FILLED } from '../../corpus/model.js';
import { createRng } from '../../corpus/random.js';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { executable } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-large-cnf');
requireBuiltCli();

describe('an external SAT solver on a large puzzle', () => {
  it("gets the CNF written from its flat clauses, within a heap its arrays of clauses overflowed, and its answer is verified", () => {
    // An 80×80 automaton CNF: 450,000 clauses. As an array per clause and one string, it needed over 64 MB of
    // heap (V8 aborted, exit 134); a 300×300 one (31 million clauses) was an error row, "Invalid string length".
    const d = dir();
    const big = generateRandomPuzzle(80, 80, 0.5, createRng(1));
    const puzzleFile = join(d, 'big.non');
    writeFileSync(puzzleFile, writeNon(big));
    // A "solver" that keeps the CNF it is given on stdin and answers the goal's cells (no auxiliary variable is read back).
    const cells = Array.from(big.goal!, (code, i) => (code === FILLED ? i + 1 : -(i + 1))).join(' ');
    const got = join(d, 'got.cnf');
    const program = executable(d, 'answer.sh', `#!/bin/sh\ncat > '${got}'\nprintf 's SATISFIABLE\\nv ${cells} 0\\n'\nexit 10\n`);
    const definition = join(d, 'bench.yaml');
    writeFileSync(definition, `configurations:\n  - { name: big, command: "${program}", input: cnf, output: dimacs-model, encoding: automaton }\n`);
    const csv = join(d, 'run.csv');
    const r = spawnSync(process.execPath, ['--max-old-space-size=64', CLI, 'run', puzzleFile, '--config', definition, '--out', csv, '--quiet', '--warmup', '0', '--max-solutions', '1'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(parseCsv(readFileSync(csv, 'utf8')).records.map((row) => [row.status, row.verified, row.error])).toEqual([['solved', 'true', '']]);
    // The whole CNF arrived: six comment lines and the header, then one line per clause it declares.
    const text = readFileSync(got, 'utf8');
    const clauses = Number(/^p cnf \d+ (\d+)$/m.exec(text)?.[1]);
    expect(clauses).toBeGreaterThan(400_000);
    expect(text.split('\n').length - 1).toBe(7 + clauses);
  }, 20_000);
});
