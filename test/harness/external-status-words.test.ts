import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';
import { executable, runDefinitionIn } from '../helpers/external-runs.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external-status');
requireBuiltCli();

describe('a SAT solver whose status word is a name of Object.prototype', () => {
  it('is an error row: never a contradiction taken on a puzzle without a goal, nor a uniqueness proof', () => {
    const d = dir();
    // webpbn #1 without its goal: nothing but the solver's word says whether it has a solution.
    const puzzle = join(d, 'dancer.non');
    writeFileSync(puzzle, readFileSync(resolve('corpus/puzzles/webpbn/1.non'), 'utf8').replace(/^goal .*\n/m, ''));
    const program = (name: string, text: string) => executable(d, name, text);
    const word = program('word.sh', '#!/bin/sh\necho "s toString"\nexit 0\n');
    // A real answer first, then the word when asked for a second solution.
    const second = program('second.sh', '#!/bin/sh\nif [ -e called ]; then echo "s constructor"; exit 0; fi\ntouch called\nexec cadical -q "$1"\n');
    const code = program('code.sh', '#!/bin/sh\necho "s __proto__"\nexit 10\n');
    const r = runDefinitionIn(
      d,
      `puzzles: [${puzzle}]
configurations:
  - { name: word, command: "${word} {cnf}", input: cnf, output: dimacs-model }
  - { name: second, command: "${second} {cnf}", input: cnf, output: dimacs-model }
  - { name: code, command: "${code} {cnf}", input: cnf, output: dimacs-model }
timeout: 5
`,
      '--workers',
      '1',
    );
    expect(r.code).toBe(1);
    const rows = Object.fromEntries(r.rows().map((row) => [row.config, [row.status, row.error]]));
    expect(rows).toEqual({
      word: ['error', expect.stringMatching(/^unreadable output: model:1: unknown solver status "toString" \(exit status 0\)/)],
      second: ['error', expect.stringMatching(/^unreadable output: model:1: unknown solver status "constructor" \(exit status 0\)/)],
      code: ['error', expect.stringMatching(/^unreadable output: model:1: unknown solver status "__proto__" \(exit status 10\)/)],
    });
  });
});
