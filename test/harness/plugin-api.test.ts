import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../harness/results/csv.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('plugin-api');
requireBuiltCli();

/** A project that depends on nonobench (linked, as npm links a local package), holding the TypeScript plugin. */
function pluginProject(): string {
  const d = dir();
  mkdirSync(join(d, 'node_modules'));
  symlinkSync(resolve('.'), join(d, 'node_modules', 'nonobench'), 'dir');
  cpSync('test/fixtures/plugins/typed-plugin.ts', join(d, 'typed-plugin.ts'));
  writeFileSync(join(d, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(d, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] }, files: ['typed-plugin.ts'] }),
  );
  return d;
}

describe("the plugin API ('nonobench')", () => {
  it('types a TypeScript plugin fully (tsc accepts it), and its compiled module runs, answering through a Promise', () => {
    const d = pluginProject();
    execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', d], { encoding: 'utf8' });
    // An L: the only picture with these clues, small enough for the plugin's brute force.
    const puzzle = join(d, 'l.non');
    writeFileSync(puzzle, 'width 3\nheight 3\n\nrows\n1\n1\n3\n\ncolumns\n3\n1\n1\n');
    const out = join(d, 'run.csv');
    const r = runCli('run', puzzle, '--repeat', '2', '--strategies', `${join(d, 'typed-plugin.js')}:delayMs=5`, '--out', out, '--quiet');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    expect(rows.map((row) => [row.strategy, row.config, row.status, row.verified, row.params])).toEqual([
      ['typed', 'typed:delayMs=5', 'unique', 'true', '{"delayMs":5}'],
      ['typed', 'typed:delayMs=5', 'unique', 'true', '{"delayMs":5}'],
    ]);
  });

  it('catches a plugin that misuses the types at compile time', () => {
    const d = pluginProject();
    const source = readFileSync(join(d, 'typed-plugin.ts'), 'utf8').replace("type: 'integer'", "type: 'integr'");
    writeFileSync(join(d, 'typed-plugin.ts'), source);
    let printed = '';
    try {
      execFileSync(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', d], { encoding: 'utf8' });
    } catch (err) {
      printed = String((err as { stdout?: string }).stdout);
    }
    expect(printed).toMatch(/typed-plugin\.ts\(\d+,\d+\): error TS\d+/);
  });

  it('refuses a module whose params declaration is malformed with one line naming the module and what is wrong', () => {
    const d = dir();
    const cases: [string, RegExp][] = [
      ["'tries'", /strategy odd: params must be a list of parameter declarations, got string/],
      ["[{ name: 'tries', type: 'integer', meaning: 'm', default: 1 }]", /strategy odd: param tries: min must be a number/],
      ["[{ name: 'mode', type: 'enum', values: [], meaning: 'm', default: 'a' }]", /strategy odd: param mode: values must be a list of strings/],
      ["[{ name: 'a', type: 'boolean', meaning: 'm', default: true }, { name: 'a', type: 'boolean', meaning: 'm', default: true }]", /params\[1\]: param a is declared twice/],
      ["[{ name: 'a', type: 'float', meaning: 'm', default: 1 }]", /param a: type must be boolean, integer or enum, got "float"/],
    ];
    for (const [i, [params, message]] of cases.entries()) {
      const module = join(d, `odd-${i}.mjs`);
      writeFileSync(module, `export default { name: 'odd', params: ${params}, solve() { throw new Error('never called'); } };\n`);
      const r = runCli('run', 'test/fixtures/harness/tiny.json#1', '--strategies', module, '--out', join(d, `odd-${i}.csv`), '--quiet');
      expect(r.code).toBe(2);
      const lines = r.err.trim().split('\n');
      expect(lines[0]).toMatch(message);
      expect(lines[0]).toContain(`cannot load the strategy module ${module}: strategy odd`);
      expect(lines).toHaveLength(2); // and the --help pointer
    }
  });

  it('holds a computed default to its parameter as a given value is held, naming the parameter; a module that throws null as it loads says so', () => {
    const d = dir();
    const cases: [string, string][] = [
      ["{ name: 'k', type: 'integer', min: 1, max: 5, meaning: 'm', default: () => -7.5 }", 'odd: param k: its computed default gave -7.5, not a whole number from 1 to 5'],
      ["{ name: 'e', type: 'enum', values: ['a', 'b'], meaning: 'm', default: () => 'zzz' }", 'odd: param e: its computed default gave "zzz", not a|b'],
      ["{ name: 'e', type: 'enum', values: ['a', 'b'], meaning: 'm', default: () => 5n }", 'odd: param e: its computed default gave 5n, not a|b'],
      ["{ name: 'b', type: 'boolean', meaning: 'm', default: () => { throw null; } }", 'odd: param b: its computed default threw null'],
    ];
    for (const [i, [param, message]] of cases.entries()) {
      const module = join(d, `computed-${i}.mjs`);
      writeFileSync(module, `export default { name: 'odd', params: [${param}], solve() { throw new Error('never called'); } };\n`);
      const r = runCli('run', 'test/fixtures/harness/tiny.json#1', '--strategies', module, '--out', join(d, `computed-${i}.csv`), '--quiet');
      expect([r.code, r.err.split('\n')[0]]).toEqual([2, `nonobench: ${message}`]);
    }
    // A computed default that gives a value the parameter takes runs.
    const good = join(d, 'computed-good.mjs');
    writeFileSync(good, "export default { name: 'good', params: [{ name: 'k', type: 'integer', min: 1, meaning: 'm', default: () => 3 }], solve(p, o) { if (o.params.k !== 3) throw new Error('k'); return { status: 'timeout', grid: new Uint8Array(p.width * p.height), solutions: [], metrics: {} }; } };\n");
    expect(runCli('run', 'test/fixtures/harness/tiny.json#1', '--strategies', good, '--out', join(d, 'good.csv'), '--quiet').code).toBe(0);
    const thrower = join(d, 'throws-null.mjs');
    writeFileSync(thrower, 'throw null;\n');
    const r = runCli('run', 'test/fixtures/harness/tiny.json#1', '--strategies', thrower, '--out', join(d, 'null.csv'), '--quiet');
    expect([r.code, r.err.split('\n')[0]]).toEqual([2, `nonobench: cannot load the strategy module ${thrower}: threw null`]);
  });

  it.skipIf(process.platform === 'win32')('refuses a module that is a named pipe or a folder at once, without reading it (a pipe with no writer used to hang the run)', () => {
    const d = dir();
    const pipe = join(d, 'pipe.mjs');
    execFileSync('mkfifo', [pipe]);
    const folder = join(d, 'folder.mjs');
    mkdirSync(folder);
    for (const [module, kind] of [
      [pipe, 'a named pipe'],
      [folder, 'a directory'],
    ]) {
      for (const command of ['run', 'solve']) {
        const args = command === 'run' ? ['run', 'test/fixtures/harness/tiny.json#1', '--strategies', module!, '--out', join(d, 'x.csv'), '--quiet'] : ['solve', 'test/fixtures/harness/tiny.json#1', '-s', module!];
        const r = runCli(...args);
        expect(r.code).toBe(2);
        expect(r.err.split('\n')[0]).toBe(`nonobench: cannot load the strategy module ${module}: not a regular file (${kind}): a strategy module must be a JavaScript file`);
      }
    }
  });

  it('says how to build a TypeScript plugin given as .ts', () => {
    const r = runCli('run', 'test/fixtures/harness/tiny.json#1', '--strategies', 'test/fixtures/plugins/typed-plugin.ts', '--out', join(dir(), 'x.csv'), '--quiet');
    expect(r.code).toBe(2);
    expect(r.err).toContain('typed-plugin.ts: a TypeScript plugin must be compiled to JavaScript first');
  });
});

describe('plugin modules are imported only in threads of their own', () => {
  it('one that loops forever at import time gives timeout rows, not a hung run', () => {
    const out = join(dir(), 'loop.csv');
    const started = performance.now();
    const r = runCli('run', 'test/fixtures/harness/tiny.json#1', 'test/fixtures/harness/tiny.json#2', '--strategies', 'test/fixtures/harness/loop-at-import.mjs,overlap', '--timeout', '0.4', '--workers', '1', '--warmup', '0', '--out', out, '--quiet');
    expect(r.code).toBe(0);
    expect(performance.now() - started).toBeLessThan(30_000);
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    const looping = rows.filter((row) => row.strategy === 'loop-at-import.mjs');
    expect(looping.map((row) => [row.status, row.error])).toEqual([
      ['timeout', 'stopped at the hard time limit'],
      ['timeout', 'stopped at the hard time limit'],
    ]);
    expect(rows.filter((row) => row.strategy === 'overlap').map((row) => row.status)).toEqual(['unique', 'unique']);
  });
});

describe("a plugin's faults stay its own", () => {
  const FIX = 'test/fixtures/harness';

  it('a solve that turns the puzzle it is given upside down never hands it to the next solve, warm-up or measured', () => {
    const out = join(dir(), 'upside-down.csv');
    const r = runCli('run', `${FIX}/tiny.json#1-4`, '-s', `${FIX}/solves-upside-down.mjs,backtrack`, '--warmup', '1', '--workers', '1', '--timeout', '20', '--out', out, '--quiet');
    expect([r.code, r.err]).toEqual([0, '']);
    const rows = parseCsv(readFileSync(out, 'utf8')).records;
    const statuses = (strategy: string) => rows.filter((row) => row.strategy === strategy).map((row) => `${row.puzzle_id} ${row.status} ${row.verified}`).sort();
    expect(statuses('upside-down')).toHaveLength(4);
    expect(statuses('upside-down')).toEqual(statuses('backtrack'));
  });

  it('a result that cannot be sent is an error row at once, though the plugin replaced structuredClone', () => {
    const out = join(dir(), 'unsendable.csv');
    const started = performance.now();
    const r = runCli('run', `${FIX}/tiny.json#1`, '-s', `${FIX}/unsendable-result.mjs`, '--warmup', '0', '--timeout', '30', '--out', out, '--quiet');
    expect(performance.now() - started).toBeLessThan(25_000); // not the hard limit's 37.5 s
    expect(r.code).toBe(1);
    const [row] = parseCsv(readFileSync(out, 'utf8')).records;
    expect([row!.status, row!.error]).toEqual(['error', expect.stringMatching(/^its result cannot be sent from the worker: .*could not be cloned/)]);
  });

  it('values written in STRATEGY:key=value reach a plugin that declares no params typed as --param types them', () => {
    const written = join(dir(), 'written.csv');
    const given = join(dir(), 'given.csv');
    const common = [`${FIX}/tiny.json#1`, '--warmup', '0', '--quiet'];
    expect(runCli('run', ...common, '-s', `${FIX}/always-solved.mjs:tries=5:flag=false:mode=fast:ratio=0.5`, '--max-solutions', '1', '--out', written).code).toBe(0);
    expect(runCli('run', ...common, '-s', `${FIX}/always-solved.mjs`, '--param', 'tries=5', '--param', 'flag=false', '--param', 'mode=fast', '--param', 'ratio=0.5', '--max-solutions', '1', '--out', given).code).toBe(0);
    const params = (file: string) => JSON.parse(parseCsv(readFileSync(file, 'utf8')).records[0]!.params!);
    expect(params(written)).toEqual({ tries: 5, flag: false, mode: 'fast', ratio: 0.5 });
    expect(params(given)).toEqual(params(written));
  });
});
