import { execFile } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkRunArguments } from '../../harness/cli/commands/run.js';
import { DEFAULT_AB_RUN } from '../../harness/cli/verdicts/ab.js';
import { UsageError } from '../../harness/io/thrown.js';
import { readCsv, writeCsv } from '../../harness/results/csv.js';
import { PACKAGE_ROOT } from '../../corpus/paths.js';
import { CLI, requireBuiltCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';

requireBuiltCli();
const temp = tempDirs('ab-run-arguments');

/** `nonobench ARGS…` from the package's folder: its exit code and stderr, whatever the code. */
const nonobench = (...args: string[]) =>
  promisify(execFile)(process.execPath, [join(PACKAGE_ROOT, CLI), ...args], { cwd: PACKAGE_ROOT, timeout: 30_000 }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );

const PUZZLE = 'test/fixtures/harness/tiny.json#1';
/** A ref no checkout has: were it looked up before the run arguments, its error would be the one printed. */
const NO_REF = 'no-such-ref-at-all';

describe('ab run arguments', () => {
  it("a run argument run would refuse is refused with run's own line (exit 2) before any ref is looked up or built", async () => {
    const cache = temp();
    const refused = {
      workers: [['-s', 'sat', '--workers', '100000'], /^nonobench: --workers 100000 is above the limit of \d+ \(4 × the \d+ cores?\)$/m],
      strategy: [['-s', 'nosuch'], /^nonobench: unknown strategy "nosuch" \(known: .*; or give a module path\)$/m],
      option: [['--bogus'], /^nonobench: unknown option '--bogus'$/m],
      value: [['--timeout', 'abc'], /^nonobench: option '--timeout <seconds>' argument 'abc' is invalid\. --timeout must be a number ≥ 0$/m],
      param: [['-s', 'backtrack', '--param', 'probing=maybe'], /^nonobench: backtrack: param probing must be true\/false, 1\/0 or on\/off, got "maybe"$/m],
      // An option ab sets itself keeps the message that says what to give instead.
      reserved: [['--repeat', 'abc'], /^nonobench: --repeat: ab sets it itself/m],
    } as const;
    const results = await Promise.all(Object.values(refused).map(([args]) => nonobench('ab', NO_REF, '--cache-dir', cache, '--out-dir', join(cache, 'ab'), '--', PUZZLE, ...args)));
    for (const [i, [, message]] of Object.values(refused).entries()) {
      expect(results[i]!.stderr).toMatch(message);
      expect(results[i]!.stderr).not.toMatch(/not a commit|building/);
      expect(results[i]!.code).toBe(2);
    }
    // A refusal of run's points to run's help, which lists what run takes, not to ab's.
    for (const [i, key] of Object.keys(refused).entries()) if (key !== 'reserved') expect(results[i]!.stderr).toMatch(/^\(see nonobench run --help\)$/m);
    expect(readdirSync(cache)).toEqual([]);
  });

  it("bench-check --ab checks the run it makes of the baseline before building the baseline's commit", async () => {
    const dir = temp();
    const recorded = join(dir, 'recorded.csv');
    expect((await nonobench('run', PUZZLE, '-s', 'sat', '--workers', '1', '--warmup', '0', '--out', recorded, '--quiet')).code).toBe(0);
    // A configuration name with `=` is written as `x=y=sat`, which run reads as strategy `y=sat`.
    const { columns, records } = readCsv(recorded);
    const baseline = join(dir, 'baseline.csv');
    writeCsv(baseline, columns, records.map((r) => ({ ...r, config: 'x=y', git_commit: '0123456789abcdef0123456789abcdef01234567' })));
    const check = await nonobench('bench-check', '--ab', '--baseline', baseline, '--cache-dir', join(dir, 'cache'), '--run-out', join(dir, 'rerun.csv'));
    expect(check.stderr).toMatch(/^nonobench: unknown strategy "y=sat"/m);
    expect(check.code).toBe(2);
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });

  it('lets every valid argument list through without loading a plugin', async () => {
    const dir = temp();
    // A plugin that leaves a file behind when it is loaded.
    const plugin = join(dir, 'plugin.mjs');
    writeFileSync(plugin, "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('./loaded', import.meta.url), '');\nexport default {};\n");
    const definition = join(dir, 'bench.yaml');
    writeFileSync(definition, 'puzzles: [quick]\nconfigurations: [{ strategy: sat }, { module: ./plugin.mjs }]\nworkers: 1\n');
    const valid = [
      DEFAULT_AB_RUN,
      ['--config', definition],
      ['--config', definition, '-s', 'sat'],
      ['--suite', 'quick', '--param', 'probing=false', '-s', 'a=sat:lines=true,probe'],
      [PUZZLE, '--timeout=0.5', '--workers', '1', '--memory', '512', '--warmup', '0', '--max-size', '40', '-q'],
      [PUZZLE, '-s', `sat,${plugin}`],
    ];
    for (const args of valid) await expect(checkRunArguments(args)).resolves.toBeUndefined();
    expect(existsSync(join(dir, 'loaded'))).toBe(false);
  });

  it("refuses what run's action refuses before its work: a malformed strategy list or shard, --shard-count without --shard auto, --resume with --out, an unknown suite, --help", async () => {
    const refused: [string[], RegExp][] = [
      [['-s', 'sat:'], /^--strategies item "sat:": "" is not KEY=VALUE$/],
      [['-s', ','], /^--strategies names no strategy$/],
      [['--shard-count', '2'], /^--shard-count goes with --shard auto$/],
      [['--resume', 'a.csv', '--out', 'b.csv'], /^--resume FILE writes to FILE/],
      [['--shard', '3/2'], /^--shard expects K\/N with 1 ≤ K ≤ N, or auto, got "3\/2"$/],
      [['--suite', 'no-such-suite'], /unknown suite "no-such-suite"/],
      // Help in place of a run: the round would record nothing, found only after the builds.
      [['--help'], /^--help: run would only show its help/],
      // The program's --version, which run takes too (it prints the version and runs nothing).
      [['--version'], /^--version: run would only show the version$/],
      [['-V'], /^--version: run would only show the version$/],
    ];
    for (const [args, message] of refused) {
      const check = checkRunArguments([PUZZLE, ...args]);
      await expect(check).rejects.toThrow(message);
      await expect(check).rejects.toBeInstanceOf(UsageError);
    }
  });
});
