import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// An output path that names one of the command's own inputs, however written, is refused before
// anything is written: the input is the user's data, the output can be made again.

const dir = tempDirs('output-is-input');
requireBuiltCli();

describe('an output that is also an input', () => {
  it('is refused with one line and exit 2 by every command that writes one, and the input stays as it was', () => {
    const d = dir();
    const puzzle = join(d, 'p.non');
    const csv = join(d, 'run.csv');
    copyFileSync('corpus/puzzles/webpbn/1.non', puzzle);
    expect(runCli('run', puzzle, '-s', 'backtrack', '--workers', '1', '--timeout', '2', '--out', csv, '--quiet').code).toBe(0);
    const grid = join(d, 'grid.txt');
    const solved = JSON.parse(runCli('solve', puzzle, '--json').out) as { grid: string[] };
    copyFileSync(csv, join(d, 'other.csv'));
    writeFileSync(grid, `${solved.grid.join('\n')}\n`);
    const before = [puzzle, csv, grid].map((f) => readFileSync(f, 'utf8'));
    const sameFile = join(d, '..', d.split('/').at(-1)!, 'p.non'); // the puzzle by another path
    const commands: string[][] = [
      ['run', puzzle, '-s', 'backtrack', '--workers', '1', '--timeout', '2', '--out', sameFile, '--quiet'],
      ['classify', puzzle, '--workers', '1', '--timeout', '2', '--out', puzzle],
      ['classify', puzzle, '--workers', '1', '--timeout', '2', '--html', puzzle],
      ['solve', puzzle, '--svg', sameFile],
      ['solve', puzzle, '--replay', puzzle],
      ['cnf', puzzle, '--out', puzzle],
      ['convert', puzzle, sameFile],
      ['check', puzzle, grid, '--svg', grid],
      ['report', csv, '--out', csv],
      ['history', csv, '--out', csv],
      ['compare', csv, join(d, 'other.csv'), '--out', csv],
    ];
    // Refused before any output is written, the other one included.
    commands.push(['classify', puzzle, '--workers', '1', '--timeout', '2', '--out', join(d, 'fresh.csv'), '--html', puzzle]);
    commands.push(['solve', puzzle, '--svg', join(d, 'fresh.svg'), '--replay', puzzle]);
    for (const args of commands) {
      const r = runCli(...args);
      expect([r.code, r.err.trim().split('\n').at(-1)], args.join(' ')).toEqual([2, expect.stringMatching(/: is also an input of this command; give another output file$/)]);
      expect([puzzle, csv, grid].map((f) => readFileSync(f, 'utf8')), args.join(' ')).toEqual(before);
    }
    expect(existsSync(join(d, 'fresh.csv')) || existsSync(join(d, 'fresh.svg'))).toBe(false);
    // merge may write over one of its inputs (it writes beside and renames at the end).
    expect(runCli('merge', csv, csv).code).toBe(0);
  });

  it("run refuses to write over the plugin module or the solver program it runs", () => {
    const d = dir();
    const plugin = join(d, 'plugin.mjs');
    copyFileSync('test/fixtures/faults/throws-late.mjs', plugin);
    const program = join(d, 'solver.sh');
    writeFileSync(program, '#!/bin/sh\nexec cadical "$@"\n', { mode: 0o755 });
    const definition = join(d, 'ext.yaml');
    writeFileSync(definition, `puzzles: [${join(process.cwd(), 'corpus/puzzles/webpbn/1.non')}]\nconfigurations:\n  - { name: cad, command: "./solver.sh -q {cnf}", input: cnf, output: dimacs-model }\n`);
    const before = [plugin, program].map((f) => readFileSync(f, 'utf8'));
    for (const args of [
      ['run', 'corpus/puzzles/webpbn/1.non', '-s', `overlap,${plugin}`, '--timeout', '1', '--out', plugin, '--quiet'],
      ['run', '--config', definition, '--out', program, '--quiet'],
    ]) {
      const r = runCli(...args);
      expect([r.code, r.err.trim().split('\n').at(-1)], args.join(' ')).toEqual([2, expect.stringMatching(/: is also an input of this command; give another output file$/)]);
    }
    expect([plugin, program].map((f) => readFileSync(f, 'utf8'))).toEqual(before);
  });
});
