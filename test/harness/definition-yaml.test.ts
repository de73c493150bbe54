import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '../../harness/config/definition.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('definition-yaml');
requireBuiltCli();

/** A definition file in a fresh folder, beside a puzzle. */
function definition(text: string): { d: string; file: string } {
  const d = dir();
  mkdirSync(join(d, 'puzzles'));
  cpSync('test/fixtures/formats/sample.non', join(d, 'puzzles', 'one.non'));
  const file = join(d, 'bench.yaml');
  writeFileSync(file, text);
  return { d, file };
}

describe('definition files: what YAML may hide', () => {
  it('reports an unknown key at its own line, not at the line its value starts on', () => {
    const { file } = definition('configurations:\n  - strategy: sat\ntimout:\n\n  3\n');
    expect(() => loadDefinition(file)).toThrow('bench.yaml:3: timout: Unrecognized key: "timout"');
    const nested = definition('configurations:\n  - strategy: sat\n    parms:\n      encoding: automaton\n');
    expect(() => loadDefinition(nested.file)).toThrow('bench.yaml:3: configurations.0.parms: Unrecognized key: "parms"');
  });

  it('refuses a tag it does not know instead of reading its value as if untagged', () => {
    const { file } = definition('configurations:\n  - strategy: !custom sat\n');
    expect(() => loadDefinition(file)).toThrow(/bench\.yaml:2: not YAML or JSON: Unresolved tag: !custom/);
  });

  it('does not take the definition file itself for a puzzle when a glob matches it', () => {
    const { d, file } = definition('puzzles: ["*", "puzzles/*"]\nconfigurations:\n  - strategy: sat\n');
    expect(loadDefinition(file).paths.map((p) => p.replace(/\/$/, ''))).toEqual([join(d, 'puzzles'), join(d, 'puzzles', 'one.non')]);
    const alone = definition('puzzles: "*.yaml"\nconfigurations:\n  - strategy: sat\n');
    expect(() => loadDefinition(alone.file)).toThrow('bench.yaml:1: puzzles: no file matches "*.yaml"');
  });
});

describe('definition files: a setting refused once the run is known', () => {
  it('a repeat that makes too many tasks is said at its line, and nothing is written', () => {
    const { d, file } = definition('puzzles: [puzzles/one.non]\nconfigurations:\n  - strategy: overlap\nrepeat: 100000000\n');
    const out = join(d, 'run.csv');
    const r = runCli('run', '--config', file, '--out', out, '-q');
    expect([r.code, r.err]).toEqual([2, `${file}:4: repeat: the run would have 100,000,000 tasks (1 puzzles × 1 configurations × 100000000 repetitions), more than the limit of 5,000,000: give fewer repetitions or puzzles\n`]);
    expect(existsSync(out)).toBe(false);
  });
});
