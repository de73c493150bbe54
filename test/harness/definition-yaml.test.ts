import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '../../harness/config/definition.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('definition-yaml');

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
