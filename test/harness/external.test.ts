import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPuzzle } from '../../corpus/load.js';
import { AdapterError, readGridOutput } from '../../harness/external/adapters.js';
import { parseCsv } from '../../harness/results/csv.js';
import { CLI, requireBuiltCli, runCli, runCliAsync } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const dir = tempDirs('external');
requireBuiltCli();

const FIXTURES = resolve('test/fixtures/external');
const gnuTimeInstalled = /GNU/.test(spawnSync('/usr/bin/time', ['--version'], { encoding: 'utf8' }).stderr ?? '');
const rowsOf = (file: string) => parseCsv(readFileSync(file, 'utf8')).records;

/** Processes whose command line names one of our fixture programs or their grandchildren. */
function fixtureProcesses(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ');
      if (/fixture-grandchild|fixture-escapee|fixtures\/external\//.test(cmdline)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // gone
    }
  }
  return found;
}

/** A definition file's folder, file and output CSV for one run. */
function definitionFiles(yaml: string) {
  const d = dir();
  const file = join(d, 'bench.yaml');
  writeFileSync(file, yaml);
  return { d, file, out: join(d, 'run.csv') };
}

function runDefinition(yaml: string, ...args: string[]) {
  const { d, file, out } = definitionFiles(yaml);
  return { ...runCli('run', '--config', file, '--out', out, '--quiet', ...args), out, d };
}

/** runDefinition without blocking, for runs that wait on sleeping programs and may overlap. */
async function runDefinitionAsync(yaml: string, ...args: string[]) {
  const { d, file, out } = definitionFiles(yaml);
  return { ...(await runCliAsync('run', '--config', file, '--out', out, '--quiet', ...args)), out, d };
}

describe('external solvers', () => {
  it('run without a memory cap or a timer when the limits are larger than the shell or a Node timer can hold', () => {
    // 2^53 MiB once wrapped to a 2 MiB cap in `ulimit -d` (the largest accepted is one less); 3,000,000 s overflowed the timer, which fired at once.
    const r = runDefinition(
      `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]\nconfigurations:\n  - { name: grid, command: "${FIXTURES}/grid-solver.mjs {puzzle}", input: non, output: grid }\nwarmup: 0\n`,
      '--memory',
      '9007199254740991',
      '--timeout',
      '3000000',
    );
    expect([r.code, r.err]).toEqual([0, '']);
    expect(rowsOf(r.out).map((row) => row.status)).toEqual(['unique']);
  });

  it('give timeout, memory, error and wrong rows for misbehaving programs, verified answers for good ones, and leave no process behind', async () => {
    const solver = (name: string, program: string, input = 'non', output = 'grid', arg = '{puzzle}') =>
      `  - { name: ${name}, command: "${FIXTURES}/${program} ${arg}", input: ${input}, output: ${output} }`;
    const puzzles = `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}, ${resolve('corpus/puzzles/seeds')}]`;
    // Programs that end by themselves get a limit no loaded machine reaches; only the hanging ones run at 1 s.
    // The two runs overlap: the hanging programs sit idle until they are killed.
    const [ending, hanging] = await Promise.all([
      runDefinitionAsync(`${puzzles}
configurations:
${solver('grid', 'grid-solver.mjs')}
${solver('grid-stdin', 'grid-solver.mjs', 'non', 'grid', '-')}
${solver('grid-xml', 'grid-solver.mjs', 'xml')}
${solver('grid-json', 'grid-solver.mjs', 'json')}
${solver('json', 'json-solver.mjs', 'non', 'json')}
${solver('wrong', 'wrong-grid.mjs')}
${solver('garbage', 'garbage.mjs')}
${solver('exit3', 'exit-3.mjs')}
${solver('fork-hang', 'fork-hang.mjs')}
${solver('hog', 'hog.mjs')}
timeout: 60
memory: 256
`),
      runDefinitionAsync(`${puzzles}
configurations:
${solver('hang', 'hang.mjs')}
${solver('escape-hang', 'escape-hang.mjs')}
timeout: 1
`),
    ]);
    expect([ending.err, hanging.err]).toEqual(['', '']);
    expect(ending.code).toBe(1); // wrong and error rows
    expect(hanging.code).toBe(0);
    const rows = [...rowsOf(ending.out), ...rowsOf(hanging.out)];
    expect(rows).toHaveLength(3 * 12);
    const byConfig = new Map<string, typeof rows>();
    for (const row of rows) byConfig.set(row.config!, [...(byConfig.get(row.config!) ?? []), row]);
    const statuses = (config: string) => byConfig.get(config)!.map((row) => row.status);

    // webpbn #1 and the Train have one solution; the GCHQ puzzle without its given cells has several.
    for (const good of ['grid', 'grid-stdin', 'grid-xml', 'grid-json', 'json', 'fork-hang']) {
      expect(statuses(good).sort(), good).toEqual(['multiple', 'unique', 'unique']);
      expect(byConfig.get(good)!.every((row) => row.verified === 'true'), good).toBe(true);
    }
    // The grandchild holding fork-hang's stdout open does not keep its row waiting for the limit.
    for (const row of byConfig.get('fork-hang')!) expect(Number(row.time_ms)).toBeLessThan(30_000);
    expect(statuses('wrong')).toEqual(['wrong', 'wrong', 'wrong']);
    expect(statuses('garbage')).toEqual(['error', 'error', 'error']);
    expect(byConfig.get('garbage')![0]!.error).toMatch(/unreadable output: no grid and no status word/);
    expect(statuses('exit3')).toEqual(['error', 'error', 'error']);
    expect(byConfig.get('exit3')![0]!.error).toBe('exit status 3; stderr: fatal: clue table overflow');
    for (const stuck of ['hang', 'escape-hang']) {
      expect(statuses(stuck), stuck).toEqual(['timeout', 'timeout', 'timeout']);
      // SIGTERM at the 1 s limit is ignored, SIGKILL follows at the hard limit (1 s later).
      for (const row of byConfig.get(stuck)!) expect(Number(row.time_ms)).toBeGreaterThanOrEqual(1900);
    }
    expect(statuses('hog')).toEqual(['memory', 'memory', 'memory']);
    expect(byConfig.get('hog')![0]!.error).toMatch(/out of memory under the 256 MiB cap/);

    for (const row of rows) {
      expect(row.strategy).toBe('external');
      expect(row.strategy_file).toMatch(new RegExp(`^${FIXTURES}/[a-z0-9-]+\\.mjs@[0-9a-f]{12}$`));
      expect(JSON.parse(row.params!).command[0]).toMatch(new RegExp(`^${FIXTURES}/`)); // the words as run, the program's path absolute
      expect(row.calib_ms).toBe('');
      // GNU time is installed where the tests run (.ci/run sees to it).
      expect(Number(row.peak_rss_kb)).toBeGreaterThan(1000);
      expect(row.cpu_ms).toMatch(/^\d+$/);
    }
    // The hog's figure is its own process's peak, near the cap it died at.
    expect(Number(byConfig.get('hog')![0]!.peak_rss_kb)).toBeGreaterThan(128 * 1024);
    expect(fixtureProcesses()).toEqual([]);
  });

  it('refuses a model file longer than any model of the CNF unread, and calls a crash an error though file pages took its peak near the cap', () => {
    const r = runDefinition(`puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: flood, command: "${FIXTURES}/model-flood.py {cnf} {model}", input: cnf, output: dimacs-model }
  - { name: pages, command: "${FIXTURES}/file-pages-crash.py {puzzle}", input: non, output: grid }
timeout: 5
memory: 64
`);
    const rows = new Map(rowsOf(r.out).map((row) => [row.config, row]));
    expect(rows.get('flood')!.status).toBe('error');
    expect(rows.get('flood')!.error).toMatch(/^unreadable output: a model file of 4000006 bytes, more than the \d+ any model of \d+ variables needs/);
    const pages = rows.get('pages')!;
    expect(Number(pages.peak_rss_kb)).toBeGreaterThan(0.9 * 64 * 1024);
    expect([pages.status, pages.error]).toEqual(['error', 'exit status 1; stderr: raise ValueError("bad index in the clue table") | ValueError: bad index in the clue table']);
  });

  it('takes an answer given in time as it is, though a process the program left behind holds its output', () => {
    const r = runDefinition(`puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: linger, command: "${FIXTURES}/linger.mjs {puzzle}", input: non, output: grid }
timeout: 3
`);
    expect(r.code).toBe(0);
    const [row] = rowsOf(r.out);
    expect([row!.status, row!.verified]).toEqual(['unique', 'true']);
    // Its time ends when it exits (after 1.2 s), not when the lingering grandchild lets go of the pipe (6 s).
    expect(Number(row!.time_ms)).toBeLessThan(4000);
  });

  it('refuses a command that cannot run with one line naming the definition file and line, exit 2', () => {
    const missing = runDefinition(`configurations:
  - strategy: sat
  - name: nope
    command: no-such-solver-anywhere {puzzle}
    input: non
    output: grid
`);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/bench\.yaml:4: configurations\.1\.command: program "no-such-solver-anywhere" not found on PATH/);
    expect(missing.err.trim().split('\n')).toHaveLength(1);

    const typo = runDefinition(`configurations:
  - { name: x, command: "cadical {cnf} {modle}", input: cnf, output: dimacs-model }
`);
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/bench\.yaml:2: .*unknown placeholder \{modle\}/);

    const half = runDefinition(`configurations:
  - name: x
    command: cadical {cnf}
`);
    expect(half.code).toBe(2);
    expect(half.err).toMatch(/bench\.yaml:3: configurations\.0\.command: an external solver needs input/);
  });
});

describe('a program that turns its scratch folder against the harness', () => {
  /** The solution of webpbn #1, row by row. */
  const DANCER = '01100011010010101110101001010000110010100101111000';
  const script = (d: string, name: string, text: string) => {
    const file = join(d, name);
    writeFileSync(file, text);
    chmodSync(file, 0o755);
    return file;
  };

  it('a named pipe or a device as its model file, or as its measurement file, is an error row, not a hang; a link it plants is not written through; figures it writes are not taken', () => {
    const d = dir();
    const victim = join(d, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const model = `print("s SATISFIABLE"); print("v " + " ".join(str(i + 1) if c == "1" else str(-(i + 1)) for i, c in enumerate("${DANCER}")) + " 0")`;
    const fifo = script(d, 'fifo-model.sh', '#!/bin/sh\nmkfifo "$2"; echo "s SATISFIABLE"; exit 10\n');
    const zero = script(d, 'zero-model.sh', '#!/bin/sh\nln -s /dev/zero "$2"; echo "s SATISFIABLE"; exit 10\n');
    // First call: the CNF becomes a link to the victim, and the answer is right; then no other solution.
    const plant = script(
      d,
      'plant-link.py',
      `#!/usr/bin/env python3\nimport os, sys\nif os.path.exists("called"):\n    print("s UNSATISFIABLE"); sys.exit(20)\nopen("called", "w").close()\nos.remove(sys.argv[1]); os.symlink(${JSON.stringify(victim)}, sys.argv[1])\n${model}\nsys.exit(10)\n`,
    );
    const rows = DANCER.match(/.{5}/g)!.join('\\n');
    const forge = script(d, 'forge-usage.sh', `#!/bin/sh\nrm -f .usage; echo "nonobench-usage 0.00 0.00 1" > .usage\nprintf '${rows}\\nunique\\n'\n`);
    const usagePipe = script(d, 'usage-pipe.sh', `#!/bin/sh\nrm -f .usage; mkfifo .usage\nprintf '${rows}\\nunique\\n'\n`);
    const r = runDefinition(`puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: fifo, command: "${fifo} {cnf} {model}", input: cnf, output: dimacs-model }
  - { name: zero, command: "${zero} {cnf} {model}", input: cnf, output: dimacs-model }
  - { name: plant, command: "${plant} {cnf}", input: cnf, output: dimacs-model }
  - { name: forge, command: "${forge}", input: non, output: grid }
  - { name: pipe, command: "${usagePipe}", input: non, output: grid }
timeout: 5
`);
    const byConfig = new Map(rowsOf(r.out).map((row) => [row.config, row]));
    expect(byConfig.get('fifo')).toMatchObject({ status: 'error', error: expect.stringMatching(/^unreadable output: a model file is a named pipe, not a regular file/) });
    expect(byConfig.get('zero')).toMatchObject({ status: 'error', error: expect.stringMatching(/^unreadable output: a model file is a device, not a regular file/) });
    expect(byConfig.get('plant')).toMatchObject({ status: 'unique', verified: 'true' });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(byConfig.get('pipe')!.status).toBe('unique');
    const forged = byConfig.get('forge')!;
    expect(forged.status).toBe('unique');
    // GNU time's own figure (a shell's peak is far above 1 KiB), or none where it is not installed.
    expect(forged.peak_rss_kb === '' || Number(forged.peak_rss_kb) > 100).toBe(true);
  });

  it('a flood on stdout is stopped at 64 MiB, an error row that still has its CPU time and peak memory', () => {
    const d = dir();
    const flood = script(d, 'flood.sh', "#!/bin/sh\nhead -c 100000000 /dev/zero | tr '\\0' x\n");
    const r = runDefinition(`puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: flood, command: "${flood}", input: non, output: grid }
timeout: 20
`);
    const row = rowsOf(r.out)[0]!;
    expect([row.status, row.error]).toEqual(['error', 'printed more than 64 MiB on stdout']);
    // The measuring wrapper is spared the kill (where GNU time is installed): the figures are the kernel's.
    if (gnuTimeInstalled) expect([row.cpu_ms, row.peak_rss_kb].map((v) => Number(v) > 0)).toEqual([true, true]);
  });

  it('leaves no scratch or measurement folder behind, even for a call the system refuses before any process exists', () => {
    const d = dir();
    const tmp = join(d, 'tmp');
    mkdirSync(tmp);
    const file = join(d, 'bench.yaml');
    // An environment variable longer than the system passes to a program (E2BIG): spawn throws at once.
    writeFileSync(file, `puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}]
configurations:
  - { name: grid, command: "${FIXTURES}/grid-solver.mjs {puzzle}", input: non, output: grid }
  - { name: big, command: "${FIXTURES}/grid-solver.mjs {puzzle}", input: non, output: grid, env: { BIG: ${'x'.repeat(200_000)} } }
`);
    const out = join(d, 'run.csv');
    const r = spawnSync(process.execPath, [CLI, 'run', '--config', file, '--out', out, '--quiet'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
    expect(r.status).toBe(1);
    expect(Object.fromEntries(rowsOf(out).map((row) => [row.config, [row.status, row.error]]))).toEqual({
      grid: ['unique', ''],
      big: ['error', expect.stringMatching(/E2BIG/)],
    });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('a line of 200,000 blanks is read at once (the status word took time quadratic in them: 50 s)', () => {
    const puzzle = loadPuzzle('corpus/puzzles/webpbn/1.non');
    const started = performance.now();
    expect(() => readGridOutput(`s${' '.repeat(200_000)}!\n`, puzzle, 2)).toThrow(AdapterError);
    expect(readGridOutput(`${DANCER.match(/.{5}/g)!.join('\n')}\nstatus:${' '.repeat(200_000)}unique\n`, puzzle, 2).status).toBe('unique');
    // Not a speed target: a guard against a solver's output holding up every task, with a margin of a thousand.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('real SAT solvers through dimacs-model', () => {
  it('cadical and minisat agree with sat on every verdict, beside a plugin in two settings, all verified in one CSV', () => {
    const r = runDefinition(`puzzles:
  - ${resolve('corpus/puzzles/webpbn')}
  - ${resolve('corpus/puzzles/seeds')}
  - ${resolve('corpus/puzzles/tournament/taai2011-questions.txt')}#1-4
  - ${resolve('corpus/puzzles/generated/20x20')}/00[1-4].non
configurations:
  - strategy: sat
  - strategy: sat
    params: { encoding: automaton }
  - { name: declared-1, module: ${resolve('test/fixtures/harness/declared-params.mjs')}, params: { tries: 1 } }
  - { name: declared-9, module: ${resolve('test/fixtures/harness/declared-params.mjs')}, params: { tries: 9 } }
  - name: cadical
    command: cadical -q {cnf}
    input: cnf
    output: dimacs-model
  - name: minisat
    command: minisat -verb=0 {cnf} {model}
    input: cnf
    output: dimacs-model
    encoding: automaton
timeout: 20
warmup: 0
`);
    // Without warm-up: on a busy machine a thread's warm-up may overrun its own limit, and say so.
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = rowsOf(r.out);
    const configs = ['sat', 'sat:encoding=automaton', 'declared-1', 'declared-9', 'cadical', 'minisat'];
    expect([...new Set(rows.map((row) => row.config))].sort()).toEqual([...configs].sort());
    const verdicts = (config: string) => new Map(rows.filter((row) => row.config === config).map((row) => [row.puzzle_id, row.status]));
    const sat = verdicts('sat');
    expect(sat.size).toBe(13 + 2 + 4 + 4);
    expect([...sat.values()].every((s) => s === 'unique' || s === 'multiple')).toBe(true);
    for (const solver of ['sat:encoding=automaton', 'cadical', 'minisat']) expect(verdicts(solver), solver).toEqual(sat);
    for (const row of rows.filter((row) => row.strategy === 'external')) {
      expect(row.verified).toBe('true');
      expect(Number(row.solutions_found)).toBe(row.status === 'unique' ? 1 : 2);
      expect(JSON.parse(row.extra!).calls).toBe(2); // the first answer, then the search for a second
    }
    expect(rows.find((row) => row.config === 'declared-9')!.strategy_file).toMatch(/declared-params\.mjs@[0-9a-f]{12}$/);
    expect(rows.find((row) => row.config === 'cadical')!.strategy_file).toMatch(/\/cadical@[0-9a-f]{12}$/);

    // report and compare see each configuration on its own.
    const page = join(r.d, 'report.html');
    expect(runCli('report', r.out, '--out', page).code).toBe(0);
    const html = readFileSync(page, 'utf8');
    for (const config of configs) expect(html).toContain(config);
    const compared = runCli('compare', r.out, r.out, '--format', 'csv');
    expect(compared.code).toBe(0);
    for (const config of ['cadical', 'minisat', 'declared-9']) expect(compared.out).toContain(config);
  });

  it('bench-check reruns a recorded external solver only with --allow-commands, and finds no change', () => {
    const r = runDefinition(`puzzles: [${resolve('corpus/puzzles/webpbn/1.non')}, ${resolve('corpus/puzzles/webpbn/6.non')}]
configurations:
  - strategy: overlap
  - { name: cadical, command: "cadical -q {cnf}", input: cnf, output: dimacs-model }
timeout: 20
`);
    expect(r.code).toBe(0);
    const refused = runCli('bench-check', '--baseline', r.out, '--run-out', join(r.d, 'again.csv'), '--quiet');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/configuration cadical runs the program .*cadical.*: give --allow-commands to rerun it/);
    // One repetition says nothing about time: the check here is statuses and counters.
    const rerun = runCli('bench-check', '--baseline', r.out, '--run-out', join(r.d, 'again.csv'), '--quiet', '--allow-commands', '--threshold', '100000');
    expect(rerun.err).toMatch(/4 tasks rerun/);
    expect(rerun.code).toBe(0);
    expect(rowsOf(join(r.d, 'again.csv')).filter((row) => row.config === 'cadical').map((row) => row.status)).toEqual(['unique', 'unique']);
  });

  it("the README's worked example runs as shipped: a SAT solver by its model, a Python program by its grid", () => {
    const out = join(dir(), 'example.csv');
    const r = runCli('run', '--config', 'examples/external/bench.yaml', '--out', out, '--quiet', '--repeat', '1');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(3 * 4);
    for (const row of rows) expect([row.config, row.status, row.verified]).toEqual([row.config, 'unique', 'true']);
    expect(rows.find((row) => row.config === 'python-line-solver')!.strategy_file).toMatch(/examples\/external\/line-solver\.py@[0-9a-f]{12}$/);
  });
});
