import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile, ScratchFileError } from '../../harness/external/scratch-files.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-proc');
requireBuiltCli();

describe('a file in the scratch folder whose size says less than it holds', () => {
  it('is read no further than the most it may hold: a /proc file says 0 bytes whatever it holds', () => {
    const d = dir();
    const link = join(d, 'model.txt');
    symlinkSync('/proc/self/environ', link);
    // The harness's environment is far longer than 16 bytes, yet /proc says its size is 0.
    expect(readFileSync('/proc/self/environ').length).toBeGreaterThan(16);
    expect(() => readRegularFile(link, 'a model file', 16)).toThrow(ScratchFileError);
    expect(() => readRegularFile(link, 'a model file', 16)).toThrow(/^a model file of more than 16 bytes/);
    // A file within the limit still reads whole.
    writeFileSync(join(d, 'small.txt'), 'SAT\n1 -2 0\n');
    expect(readRegularFile(join(d, 'small.txt'), 'a model file', 16)).toBe('SAT\n1 -2 0\n');
  });

  it('a model file linked to /proc/self/pagemap (hundreds of GiB, size 0) is an error row, not a harness that reads until it dies', () => {
    const d = dir();
    const program = executable(d, 'pagemap.sh', '#!/bin/sh\nln -s /proc/self/pagemap "$2"\nexit 10\n');
    const r = runDefinitionIn(
      d,
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]\nconfigurations:\n  - { name: pagemap, command: "${program} {cnf} {model}", input: cnf, output: dimacs-model }\ntimeout: 5\n`,
    );
    expect(r.code).toBe(1);
    const [row] = r.rows();
    expect(row).toMatchObject({ status: 'error', error: expect.stringMatching(/^unreadable output: a model file of more than \d+ bytes \(its size said 0\)/) });
  });
});
