import { readFileSync, writeFileSync, cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDefinition } from '../../harness/config/definition.js';
import { parseCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('definition');
requireBuiltCli();

/** A folder with puzzles beside the definition, which names them relatively. */
function workspace(definition: string, name = 'bench.yaml'): { d: string; file: string } {
  const d = dir();
  cpSync('test/fixtures/harness/tiny.json', join(d, 'puzzles', 'tiny.json'), { recursive: true });
  cpSync('test/fixtures/formats/sample.non', join(d, 'puzzles', 'one.non'));
  const file = join(d, name);
  writeFileSync(file, definition);
  return { d, file };
}

/** A puzzle for a run whose definition names none and fails before solving: the default corpus would be read first, which took most of such a run's time. */
const ONE = 'test/fixtures/harness/tiny.json#1';

const rowsOf = (file: string) => parseCsv(readFileSync(file, 'utf8')).records.sort((a, b) => Number(a.task) - Number(b.task));

describe('run --config', () => {
  it('runs the puzzles, configurations and settings a YAML definition gives, and records it', () => {
    const { d, file } = workspace(`# two puzzles, three configurations
puzzles:
  - "puzzles/*.non"
  - puzzles/tiny.json#2-3
configurations:
  - strategy: sat
  - { name: auto, strategy: sat, params: { encoding: automaton } }
  - module: ${resolve('test/fixtures/harness/declared-params.mjs')}
    params: { tries: 5 }
timeout: 7
repeat: 2
`);
    const out = join(d, 'run.csv');
    const r = runCli('run', '--config', file, '--out', out, '--quiet', '--repeat', '1');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(9); // 3 puzzles × 3 configurations × 1 repetition (the command line wins)
    expect([...new Set(rows.map((row) => row.config))]).toEqual(['sat', 'auto', 'declared:tries=5']);
    expect(new Set(rows.map((row) => row.timeout_s))).toEqual(new Set(['7']));
    expect(rows.every((row) => row.verified === 'true')).toBe(true);
    expect(rows[0]!.definition).toMatch(/bench\.yaml@[0-9a-f]{12}$/);
    expect(JSON.parse(rows.find((row) => row.config === 'auto')!.params!).encoding).toBe('automaton');
  });

  it("reads JSON too, and command-line paths and strategies replace the file's", () => {
    const { d, file } = workspace(JSON.stringify({ puzzles: 'puzzles/one.non', configurations: [{ strategy: 'overlap' }], repeat: 2 }), 'bench.json');
    const out = join(d, 'run.csv');
    expect(runCli('run', '--config', file, '--out', out, '--quiet').code).toBe(0);
    expect(rowsOf(out).map((row) => [row.config, row.rep])).toEqual([['overlap', '1'], ['overlap', '2']]);
    const other = join(d, 'other.csv');
    expect(runCli('run', '--config', file, 'test/fixtures/harness/tiny.json#1', '--strategies', 'sat', '--out', other, '--quiet').code).toBe(0);
    expect(rowsOf(other).map((row) => [row.config, row.puzzle_path])).toEqual([['sat', 'test/fixtures/harness/tiny.json#1'], ['sat', 'test/fixtures/harness/tiny.json#1']]);
  });

  it('reports a bad definition at its line, writes nothing and exits 2', () => {
    // [text, message, through the CLI]: what loadDefinition finds is checked in this process, the rest
    // (found once configurations load, or where the process's own stack decides) and one of each
    // kind through the CLI, which must print that one line, write nothing and exit 2.
    const cases: [string, string, boolean?][] = [
      ['configurations:\n  - strategy: sat\ntimout: 5\n', ':3: timout: Unrecognized key: "timout"', true],
      ['configurations:\n  - strategy: sat\nrepeat: two\n', ':3: repeat: Invalid input: expected number, received string'],
      ['configurations:\n  - strategy: sat\n    params: [1]\n', ':3: configurations.0.params: Invalid input'],
      ['configurations:\n  - strategy: satt\n', ':2: configurations.0.strategy: unknown strategy "satt"'],
      ['configurations:\n  - { strategy: sat, module: ./x.mjs }\n', ':2: configurations.0: give one of strategy (a built-in), module (a plugin) or command (an external solver)'],
      ['puzzles:\n  - "nothing/*.non"\nconfigurations:\n  - strategy: sat\n', ':2: puzzles: no file matches "nothing/*.non"'],
      ['configurations:\n  - strategy: sat\nrepeat: 1\nrepeat: 2\n', ':4: repeat is given twice'],
      ['configurations: []\n', ':1: configurations: Too small'],
      ['configurations: [{strategy: backtrack, params: {__proto__: 1}}]\n', ':1: configurations.0.params: "__proto__" is not a parameter name'],
      // What no program can be given: a NUL character in a word or a variable, a variable named with "=" (it would set another).
      ['configurations:\n  - input: non\n    output: grid\n    command: "/bin/true a\\u0000b"\n', ':4: configurations.0.command: a NUL character cannot be passed to a program'],
      ['configurations:\n  - input: non\n    output: grid\n    command: [/bin/true, "a\\0"]\n', ':4: configurations.0.command.1: a NUL character cannot be passed to a program'],
      ['configurations:\n  - command: /bin/true\n    input: non\n    output: grid\n    env:\n      A: "x\\0y"\n', ':6: configurations.0.env.A: a NUL character cannot be passed to a program'],
      ['configurations:\n  - command: /bin/true\n    input: non\n    output: grid\n    env: {"A=B": x}\n', ':5: configurations.0.env.A=B: an environment variable name is not empty and holds no "=" nor NUL character'],
      ['configurations:\n  - command: /bin/true\n    input: non\n    output: grid\n    env: {__proto__: x}\n', ':5: configurations.0.env: "__proto__" is not an environment variable name'],
      // Problems found once the configurations are loaded are reported at the configuration too.
      ['configurations:\n  - strategy: overlap\n  - strategy: backtrack\n    params: { probing: maybe }\n', ':3: backtrack: param probing must be true/false', true],
      ['configurations:\n  - { name: a, strategy: overlap }\n  - { name: a, strategy: backtrack }\n', ':3: configuration "a" is listed twice', true],
      ['configurations:\n  - strategy: overlap\n  - strategy: overlap\n', ':3: configuration "overlap" is listed twice (give one of them a name of its own: `name: NAME` in its entry)', true],
      ['configurations:\n  - strategy: overlap\n  - strategy: sat\n    params: { probe: true, propagate: false }\n', ':3: sat: param probe=true needs propagate=true', true],
      ['configurations:\n  - module: ./nope.mjs\n', ':2: cannot load the strategy module ', true],
      ['configurations:\n  - strategy: overlap\nworkers: 1000000000\n', ':3: workers: 1000000000 is above the limit of ', true],
      ['configurations:\n  - strategy: overlap\nwarmup: 1000\n', ':3: warmup: Too big'],
      // YAML's own traps: one line at the file, never a bare message or a Node warning.
      ['configurations:\n  - strategy: *nope\n', ':2: not YAML or JSON: *nope names no anchor before it', true],
      ['configurations:\n  - strategy: sat\n? [a, b]\n: 1\n', ':1: a key must be a name, not a list or a mapping'],
      [
        `a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n${['b', 'c', 'd', 'e'].map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcd'[i]}`).join(', ')}]`).join('\n')}\nconfigurations:\n  - strategy: sat\n`,
        ':1: not YAML or JSON: Excessive alias count',
        true,
      ],
      [`${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`, ':1: not YAML or JSON: ', true],
      [`a: ${'['.repeat(10000)}${']'.repeat(10000)}\n`, ':1: not YAML or JSON: nested too deeply', true],
    ];
    for (const [text, message, cli] of cases) {
      const { d, file } = workspace(text);
      if (!cli) {
        expect(() => loadDefinition(file), text).toThrow(`bench.yaml${message}`);
        continue;
      }
      const out = join(d, 'run.csv');
      const r = runCli('run', ONE, '--config', file, '--out', out, '--quiet');
      expect(r.code, text).toBe(2);
      expect(r.err.split('\n')[0], text).toContain(`bench.yaml${message}`);
      if (message.includes('YAML') || message.includes('key must')) expect(r.err.trimEnd().split('\n'), text).toHaveLength(1);
      expect(() => readFileSync(out)).toThrow();
    }
  });

  it('blames a bad --param value on the command line, not on the definition it is given with', () => {
    const { d, file } = workspace('configurations:\n  - strategy: backtrack\n');
    const r = runCli('run', ONE, '--config', file, '--param', 'probing=maybe', '--out', join(d, 'run.csv'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err.trimEnd().split('\n')).toEqual(['nonobench: backtrack: param probing must be true/false, 1/0 or on/off, got "maybe"', '(see nonobench run --help)']);
    // Also where the configuration sets that param itself (its value would win, but the bad one is still refused).
    const own = workspace('configurations:\n  - { strategy: backtrack, params: { probing: true } }\n');
    const again = runCli('run', ONE, '--config', own.file, '--param', 'probing=maybe', '--out', join(own.d, 'run.csv'), '--quiet');
    expect(again.code).toBe(2);
    expect(again.err.split('\n')[0]).toBe('nonobench: backtrack: param probing must be true/false, 1/0 or on/off, got "maybe"');
  });

  it("blames a plugin's bad param on the side that gave it, beside a good one from the other side", () => {
    const plugin = resolve('test/fixtures/harness/declared-params.mjs');
    const { d, file } = workspace(`configurations:\n  - strategy: overlap\n  - { module: ${plugin}, params: { tries: 99 } }\n`);
    const fileBad = runCli('run', ONE, '--config', file, '--param', 'loud=true', '--out', join(d, 'a.csv'), '--quiet');
    expect(fileBad.code).toBe(2);
    expect(fileBad.err.split('\n')[0]).toMatch(/bench\.yaml:3: declared: param tries must be a whole number from 1 to 9, got 99/);
    const cli = workspace(`configurations:\n  - { module: ${plugin}, params: { tries: 2 } }\n`);
    const cliBad = runCli('run', ONE, '--config', cli.file, '--param', 'loud=maybe', '--out', join(cli.d, 'b.csv'), '--quiet');
    expect(cliBad.code).toBe(2);
    expect(cliBad.err.split('\n')[0]).toBe('nonobench: declared: param loud must be true/false, 1/0 or on/off, got "maybe"');
  });
});
