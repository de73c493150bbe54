import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('definition-resume');
requireBuiltCli();
const CLI = resolve('dist/harness/cli.js');

/** The CLI run from `cwd`. */
const cli = (cwd: string, ...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

const DEFINITION = 'puzzles: [tiny.json#1, tiny.json#2]\nconfigurations:\n  - { strategy: backtrack }\ntimeout: 1\nwarmup: 0\nworkers: 1\n';

/** A run of the definition in a fresh folder, its last row cut off as by a run killed midway. */
function interrupted(): { d: string; out: string } {
  const d = dir();
  cpSync('test/fixtures/harness/tiny.json', join(d, 'tiny.json'));
  writeFileSync(join(d, 'bench.yaml'), DEFINITION);
  const out = join(d, 'run.csv');
  expect(cli(d, 'run', '--config', 'bench.yaml', '--out', out, '--quiet').code).toBe(0);
  const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
  writeFileSync(out, `${lines.slice(0, -1).join('\n')}\n`);
  return { d, out };
}

const definitions = (file: string) => [...new Set(parseCsv(readFileSync(file, 'utf8')).records.map((row) => row.definition))];

describe('run --config --resume', () => {
  it('refuses to append rows of an edited definition, leaving the file as it was', () => {
    const { d, out } = interrupted();
    writeFileSync(join(d, 'bench.yaml'), `${DEFINITION}# edited\n`);
    const before = readFileSync(out, 'utf8');
    const r = cli(d, 'run', '--config', 'bench.yaml', '--resume', out, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/run\.csv:2: cannot resume: its rows ran from the definition "?bench\.yaml@[0-9a-f]{12}"?, and this run from "?bench\.yaml@[0-9a-f]{12}/);
    expect(readFileSync(out, 'utf8')).toBe(before);
  });

  it('refuses to append rows of a definition to rows run without one', () => {
    const { d, out } = interrupted();
    const r = cli(d, 'run', 'tiny.json#1', 'tiny.json#2', '-s', 'backtrack', '--timeout', '1', '--warmup', '0', '--workers', '1', '--resume', out, '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot resume: its rows ran from the definition .*, and this run has none/);
  });

  it('names the definition as the rows do when resumed from another folder, so bench-check takes the file', () => {
    const { d, out } = interrupted();
    const sub = join(d, 'sub');
    mkdirSync(sub);
    expect(cli(sub, 'run', '--config', '../bench.yaml', '--resume', out, '--quiet').code).toBe(0);
    const values = definitions(out);
    expect(values).toHaveLength(1);
    expect(values[0]).toMatch(/^bench\.yaml@[0-9a-f]{12}$/);
  });
});
