import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { abRun, cachedBuild, combineRounds, runInterleaved, shortCommit, explicitRun, reservedRunOption, roundOrder } from '../../harness/ab/ab.js';
import { Failure } from '../../harness/io/thrown.js';
import { suitePaths } from '../../corpus/suites.js';
import { configItem } from '../../harness/ab/bench-check-ab.js';
import { parseConfigList } from '../../harness/config/configurations.js';
import { typedParam } from '../../solvers/api/params.js';
import { CsvAppender, readCsv, writeCsv } from '../../harness/results/csv.js';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { CLI, requireBuiltCli, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const temp = tempDirs('ab');

describe('ab rounds', () => {
  it("a round whose run crashes is a failure (exit 1), not the user's bad input (exit 2)", async () => {
    const dir = temp();
    const crashing = join(dir, 'cli.js');
    writeFileSync(crashing, "process.stderr.write('boom\\n'); process.exit(3);\n");
    const build = { label: 'crashing build', commit: 'c', dir, cli: crashing };
    const rounds = runInterleaved({ base: build, next: build, runArgs: [], rounds: 1, outDir: dir, cwd: dir, log: () => {} });
    await expect(rounds).rejects.toBeInstanceOf(Failure);
    await expect(rounds).rejects.toThrow(/crashing build: its run exited with 3: boom/);
  });

  it('alternate which side goes first (BASE NEW, NEW BASE, …), so each side is first in half the rounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), (rounds) => {
        const order = roundOrder(rounds);
        expect(order).toHaveLength(rounds);
        for (const [r, sides] of order.entries()) expect(sides).toEqual(r % 2 === 0 ? ['base', 'new'] : ['new', 'base']);
        const baseFirst = order.filter((s) => s[0] === 'base').length;
        expect(baseFirst - (rounds - baseFirst)).toBe(rounds % 2);
      }),
    );
  });

  it('join into one CSV whose repetition r is round r, every other value kept as written', () => {
    const dir = temp();
    const columns = ['task', 'puzzle_id', 'rep', 'config', 'time_ms', 'error'];
    const files = [1, 2, 3].map((r) => {
      const file = join(dir, `round${r}.csv`);
      const w = new CsvAppender(file, columns);
      w.write([0, 'p1', 1, 'sat', 1.5 * r, '']);
      w.write([1, 'p2', 1, 'sat', 2 * r, r === 2 ? 'a "quoted",\nmessage' : '']);
      w.close();
      return file;
    });
    const out = join(dir, 'side.csv');
    combineRounds(files, out);
    const { records } = readCsv(out);
    expect(records.map((r) => [r.task, r.rep, r.time_ms])).toEqual([
      ['0', '1', '1.5'],
      ['1', '1', '2'],
      ['0', '2', '3'],
      ['1', '2', '4'],
      ['0', '3', '4.5'],
      ['1', '3', '6'],
    ]);
    expect(records[3]!.error).toBe('a "quoted",\nmessage');
  });

  it("write out the puzzles (a suite, a definition's, the default corpus) as this checkout's paths, and the warm-up, workers and memory", () => {
    const quick = suitePaths('quick').map((p) => relative(PACKAGE_ROOT, p));
    const settings = ['--warmup', '1', '--workers', '2', '--memory', '2048'];
    const run = (args: string[], cwd = PACKAGE_ROOT) => explicitRun(args, cwd, 2);
    expect(run(['--suite', 'quick', '-s', 'sat'])).toEqual([...quick, '-s', 'sat', ...settings]);
    expect(run(['x.non', '--suite=quick'])).toEqual(['x.non', ...quick, ...settings]);
    expect(run(['-s', 'sat', '--timeout', '2'])).toEqual(['corpus/puzzles', '-s', 'sat', '--timeout', '2', ...settings]);
    expect(run(['--timeout', '2', 'a.non', '--quiet', '--warmup=0', '--workers', '1'])).toEqual(['--timeout', '2', 'a.non', '--quiet', '--warmup=0', '--workers', '1', '--memory', '2048']);
    expect(run(['-s', 'sat'], join(PACKAGE_ROOT, 'reports'))).toEqual(['../corpus/puzzles', '-s', 'sat', ...settings]);
    // A definition: its puzzles written out (they would be looked up in each build's folder), its settings kept.
    const dir = temp();
    writeFileSync(join(dir, 'bench.yaml'), 'puzzles: [quick]\nconfigurations: [{ strategy: sat }]\nwarmup: 2\n');
    expect(run(['--config', join(dir, 'bench.yaml')])).toEqual([...quick, '--config', join(dir, 'bench.yaml'), '--workers', '2', '--memory', '2048']);
    expect(run(['a.non', '--config', join(dir, 'bench.yaml'), '--memory=512'])).toEqual(['a.non', '--config', join(dir, 'bench.yaml'), '--memory=512', '--workers', '2']);
  });

  it('leave --repeat, --out, --resume and --shard to ab itself', () => {
    expect(reservedRunOption(['corpus/puzzles/webpbn', '-s', 'sat', '--timeout', '2'])).toBeUndefined();
    expect(reservedRunOption(['x.non', '--repeat', '3'])).toBe('--repeat');
    expect(reservedRunOption(['x.non', '--out=a.csv'])).toBe('--out');
    expect(reservedRunOption(['--resume', 'a.csv'])).toBe('--resume');
    expect(reservedRunOption(['--shard', '1/2'])).toBe('--shard');
    // Short flags written together, read as run reads them.
    expect(reservedRunOption(['x.non', '-qs', 'sat'])).toBe('-q');
    expect(reservedRunOption(['x.non', '-sq'])).toBeUndefined(); // -s with the value "q"
    // A value is no option, and nothing after -- is one.
    expect(reservedRunOption(['-s', '--out', 'x.non'])).toBeUndefined();
    expect(reservedRunOption(['--timeout', '2', '-s', 'sat', '-q'])).toBe('-q');
    expect(reservedRunOption(['--', '--repeat'])).toBeUndefined();
  });

  it("write a baseline's configurations as --strategies items that parse back to them", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom('sat', 'probe', 'backtrack'), fc.dictionary(word, fc.oneof(word, fc.integer({ min: 0, max: 999 }).map(String)))), { minLength: 1, maxLength: 4 }), (configs) => {
        const specs = configs.map(([name, strategy, params]) => ({ name, strategy, params }));
        const parsed = parseConfigList(specs.map(configItem).join(','));
        // Values come back as --param types them (`7` a number), which is how a strategy's parser takes them.
        const typed = specs.map((c) => ({ ...c, params: Object.fromEntries(Object.entries(c.params).map(([k, v]) => [k, typedParam(v)])) }));
        expect(parsed.map((p) => ({ name: p.name, strategy: p.strategy, params: p.params ?? {} }))).toEqual(typed);
      }),
    );
    expect(() => configItem({ name: 'a', strategy: 'sat', params: { order: 'x,y' } })).toThrow('has a comma or colon');
    expect(() => configItem({ name: 'ext', strategy: 'external', external: { command: 'x' } as never })).toThrow('external program');
  });
});

describe('ab log', () => {
  it('names a commit by twelve digits, keeping the -dirty of a working tree with changes', () => {
    const full = '83eca1ceb319a2b4c5d6e7f8091a2b3c4d5e6f70';
    expect(shortCommit(full)).toBe('83eca1ceb319');
    expect(shortCommit(`${full}-dirty`)).toBe('83eca1ceb319-dirty');
  });
});

describe('ab arguments', () => {
  it('a NEW ref that names no commit, or an unknown suite, is refused before anything is built', async () => {
    const cache = temp();
    const log = (line: string) => {
      if (/^building/.test(line)) throw new Error(`built before the arguments were checked: ${line}`);
    };
    const o = { baseRef: 'HEAD', rounds: 1, outDir: join(temp(), 'ab'), cacheDir: cache, cwd: PACKAGE_ROOT, compare: {} as never, log };
    await expect(abRun({ ...o, newRef: 'no-such-ref-at-all', runArgs: ['x.non'] })).rejects.toThrow(/^no-such-ref-at-all: not a commit/);
    await expect(abRun({ ...o, runArgs: ['--suite', 'no-such-suite'] })).rejects.toThrow(/unknown suite "no-such-suite"/);
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe('ab cache folder', () => {
  it("a relative --cache-dir is the folder it names from here, not from the checkout's top folder; an empty one is refused", async () => {
    const cache = temp();
    const head = (await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: PACKAGE_ROOT })).stdout.trim();
    // A finished build of HEAD, so that nothing is built: only where the build is looked for is tested.
    mkdirSync(join(cache, head, 'dist', 'harness'), { recursive: true });
    writeFileSync(join(cache, head, 'dist', 'harness', 'cli.js'), '');
    writeFileSync(join(cache, head, '.nonobench-build'), `${head}\n`);
    const build = await cachedBuild(PACKAGE_ROOT, 'HEAD', relative(process.cwd(), cache), () => {});
    // git adds a worktree from the checkout's top folder: a relative path would put it there, not here.
    expect(build.dir).toBe(join(cache, head));
    expect(build.cli).toBe(join(cache, head, 'dist', 'harness', 'cli.js'));
    const empty = runCli('ab', 'HEAD', '--cache-dir', '', '--', 'x.non');
    expect(empty.code).toBe(2);
    expect(empty.err).toMatch(/--cache-dir must not be empty/);
  });
});

describe('ab builds', () => {
  it('a ref whose build fails is a failure naming the ref (exit 1), not bad input (exit 2)', () => {
    // A nonobench checkout whose only commit does not build.
    const checkout = temp();
    writeFileSync(join(checkout, 'package.json'), '{"name":"nonobench","scripts":{"build":"echo error TS1005: broken >&2; exit 1"}}\n');
    writeFileSync(join(checkout, 'package-lock.json'), '{"name":"nonobench","lockfileVersion":3}\n');
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: checkout });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'broken build');
    mkdirSync(join(checkout, 'node_modules'));
    const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, CLI), 'ab', 'HEAD', 'HEAD', '--cache-dir', join(checkout, 'cache'), '--out-dir', join(checkout, 'ab'), '--', 'x.non'], { cwd: checkout, encoding: 'utf8' });
    expect(r.stderr).toMatch(/^nonobench: HEAD \([0-9a-f]{12}\): its build failed: `npm run build --silent` in .* exited with 1: error TS1005: broken$/m);
    expect(r.status).toBe(1);
  });
});

describe('nonobench ab', () => {
  it('builds a commit once into its cache, runs both sides in alternating rounds and compares them', { timeout: 300_000 }, async () => {
    const cache = temp();
    const outDir = join(temp(), 'ab');
    const run = promisify(execFile);
    const ab = (...args: string[]) =>
      run(process.execPath, [join(PACKAGE_ROOT, CLI), 'ab', ...args], { cwd: PACKAGE_ROOT, timeout: 280_000 }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
      );
    const puzzles = ['test/fixtures/harness/tiny.json#1', 'corpus/puzzles/webpbn/1.non'];
    try {
      const first = await ab('HEAD', 'HEAD', '--rounds', '2', '--cache-dir', cache, '--out-dir', outDir, '--', ...puzzles, '-s', 'sat,probe', '--workers', '1');
      expect(first.stderr).toMatch(/building HEAD \([0-9a-f]{12}\)/);
      expect(first.stderr).toMatch(/round 1\/2: base [\d.]+ s, new [\d.]+ s\nround 2\/2: new [\d.]+ s, base [\d.]+ s/);
      // Two rounds are too few repetitions for a time verdict: statuses alone decide, and they agree.
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/OK: no regression in 4 pairs/);
      expect(first.stdout).toContain('time inconclusive for 4 of 4 pairs: fewer than 3 repetitions a side: rerun with --rounds 3 or more'); // ab has no --repeat of its own
      for (const side of ['base', 'new']) {
        const { records } = readCsv(join(outDir, `${side}.csv`));
        expect(records.map((r) => r.rep).sort()).toEqual(['1', '1', '1', '1', '2', '2', '2', '2']);
        expect(new Set(records.map((r) => r.status))).toEqual(new Set(['unique']));
      }
      expect(readdirSync(cache).filter((f) => /^[0-9a-f]{40}$/.test(f))).toHaveLength(1);
      // A second A/B of the same commit takes the cached build.
      const again = await ab('HEAD', 'HEAD', '--rounds', '1', '--cache-dir', cache, '--out-dir', join(outDir, 'again'), '--', puzzles[0]!, '-s', 'sat', '--workers', '1');
      expect(again.code).toBe(0);
      expect(again.stderr).not.toMatch(/building/);
      // Options ab sets itself are refused, naming what to give instead.
      const refused = await ab('HEAD', 'HEAD', '--cache-dir', cache, '--', puzzles[0]!, '--repeat', '3');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/--repeat: ab sets it itself/);
      const unknown = await ab('no-such-ref-at-all', '--cache-dir', cache, '--', puzzles[0]!);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/no-such-ref-at-all: not a commit/);

      // bench-check --ab: the baseline's commit (here HEAD, built above) against this checkout.
      const dir = temp();
      const recorded = join(dir, 'baseline.csv');
      const cli = (...args: string[]) =>
        run(process.execPath, [join(PACKAGE_ROOT, CLI), ...args], { cwd: PACKAGE_ROOT, timeout: 200_000 }).then(
          (r) => ({ code: 0, ...r }),
          (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
        );
      expect((await cli('run', ...puzzles, '-s', 'sat', '--repeat', '1', '--workers', '1', '--out', recorded, '--quiet')).code).toBe(0);
      const head = (await run('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: PACKAGE_ROOT })).stdout.trim();
      const { columns, records } = readCsv(recorded);
      const atCommit = (commit: string) => {
        const file = join(dir, `baseline-${commit}.csv`);
        writeCsv(file, columns, records.map((r) => ({ ...r, git_commit: commit })));
        return file;
      };
      // --rounds: more rounds than the baseline's one repetition (without it, the rounds would be the
      // baseline's repetitions), and enough (3) for an interval over the rounds, which must not fail the check.
      const check = await cli('bench-check', '--ab', '--rounds', '3', '--baseline', atCommit(head), '--cache-dir', cache, '--run-out', join(dir, 'rerun.csv'));
      expect(check.stderr).not.toMatch(/building/);
      expect(check.stdout).toMatch(/^Statuses and counters against .*baseline-[0-9a-f]{12}\.csv:$/m);
      expect(check.stdout).toMatch(new RegExp(`^Time, A/B against the baseline's commit ${head}:$`, 'm'));
      // The time section has its interval over the rounds (with 2 rounds: "too few"), whatever it concludes.
      expect(check.stdout.split("Time, A/B against the baseline's commit")[1]).toMatch(/^sat .* \[\d+\.\d{3}, \d+\.\d{3}\] /m);
      expect(check.code).toBe(0);
      expect(readCsv(join(dir, 'rerun.csv')).records.map((r) => r.rep).sort()).toEqual(['1', '1', '2', '2', '3', '3']);
      const dirty = await cli('bench-check', '--ab', '--baseline', atCommit(`${head}-dirty`), '--cache-dir', cache, '--run-out', join(dir, 'dirty.csv'));
      expect(dirty.code).toBe(2);
      expect(dirty.stderr).toMatch(/uncommitted changes .*which no commit reproduces/);
      // A baseline from a definition is refused before anything is built or run.
      const fromDefinition = join(dir, 'from-definition.csv');
      writeCsv(fromDefinition, columns, records.map((r) => ({ ...r, git_commit: head, definition: 'bench.yaml@0123abcd' })));
      const refusedDefinition = await cli('bench-check', '--ab', '--baseline', fromDefinition, '--cache-dir', cache, '--run-out', join(dir, 'def.csv'));
      expect(refusedDefinition.code).toBe(2);
      expect(refusedDefinition.stderr).toMatch(/recorded from a benchmark definition \(bench\.yaml@0123abcd\).*without --ab/);
      expect(existsSync(join(dir, 'def-ab'))).toBe(false);

      // Ctrl-C reaches ab, which passes it on once to the round's run (in a process group of its own): exit 130, nothing left running.
      const interruptedDir = join(temp(), 'interrupted');
      const child = spawn(process.execPath, [join(PACKAGE_ROOT, CLI), 'ab', 'HEAD', 'HEAD', '--rounds', '20', '--cache-dir', cache, '--out-dir', interruptedDir, '--', ...puzzles, '-s', 'sat,probe,backtrack'], {
        cwd: PACKAGE_ROOT,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let said = '';
      child.stderr.on('data', (b: Buffer) => (said += b.toString()));
      const ended = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
      while (!/round 1\/20/.test(said)) await new Promise((r) => setTimeout(r, 50));
      child.kill('SIGINT');
      expect(await ended).toBe(130);
      expect(said).toMatch(/ab: interrupted; the rounds run so far are in /);
      const left = readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(interruptedDir);
        } catch {
          return false;
        }
      })());
      expect(left).toEqual([]);
    } finally {
      for (const dir of existsSync(cache) ? readdirSync(cache) : []) if (/^[0-9a-f]{40}$/.test(dir)) await run('git', ['worktree', 'remove', '--force', join(cache, dir)], { cwd: PACKAGE_ROOT }).catch(() => {});
    }
  });
});
