import { Option, type Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isDirectory, refuseInputAsOutput } from '../../../corpus/input-files.js';
import { clip } from '../../../corpus/errors.js';
import { defaultCacheDir } from '../../ab/builds.js';
import { Interrupted } from '../../ab/child.js';
import { formatComparison, type CompareFormat } from '../../compare/format.js';
import { defaultRunsPath } from '../../io/output-path.js';
import { UsageError } from '../../io/thrown.js';
import { nonEmpty, positiveInt } from '../options.js';
import { addCompareOptions, compareOptionsOf, emit, noteSettings, printRefusal } from './compare.js';
import { MIN_REPS, SettingsRefusal } from '../../compare/compare.js';

/** What both sides run when no `run` arguments follow `--`. */
export const DEFAULT_AB_RUN = ['--suite', 'quick', '--timeout', '2'];

export function registerAb(program: Command): void {
  addCompareOptions(
    program
      .command('ab')
      .description(
        'build two commits (each once, in a cached git worktree) and run them over the same tasks in alternating rounds ' +
          '(BASE NEW, NEW BASE, …), then compare NEW against BASE as compare does; exit 1 on a regression',
      )
      .usage('[options] <base> [new] [-- run arguments…]')
      .argument('<base>', 'git ref of the base side (a commit, branch, tag, HEAD~1)')
      .argument('[new-and-run...]', `git ref of the new side (default: the working tree, built in place); after --, the puzzles and options given to both sides' \`run\` (default: ${DEFAULT_AB_RUN.join(' ')})`)
      .addOption(new Option('--rounds <n>', 'alternating rounds; each is one repetition of every task on each side').argParser(positiveInt('--rounds')).default(5))
      .option('--out-dir <dir>', 'folder for the CSVs: every round of each side, and base.csv and new.csv (default: reports/runs/ab-<time>-<random>/)', nonEmpty('--out-dir'))
      .addOption(new Option('--cache-dir <dir>', 'where builds are kept, one folder per commit').argParser(nonEmpty('--cache-dir')).default(defaultCacheDir(), '$NONOBENCH_CACHE or ~/.cache/nonobench/builds')),
  ).action(async (base: string, rest: string[], o) => {
    const raw = process.argv;
    const dash = raw.indexOf('--');
    const runArgs = dash >= 0 ? raw.slice(dash + 1) : [];
    const refs = rest.slice(0, rest.length - runArgs.length);
    if (refs.length > 1) throw new UsageError(`ab takes at most two refs (got ${[base, ...refs].join(' ')}); give run's puzzles and options after --`);
    // Two ab runs started in the same second get folders of their own.
    const outDir = o.outDir ?? `${defaultRunsPath('ab-').replace(/\.csv$/, '')}-${randomBytes(2).toString('hex')}`;
    // Before the builds and rounds, which take minutes: an output that cannot be one is found now.
    if (o.out !== undefined) refuseInputAsOutput(o.out);
    if (existsSync(outDir) && !isDirectory(outDir)) throw new UsageError(`--out-dir ${clip(outDir)}: is not a folder`);
    const log = (line: string) => process.stderr.write(`${line}\n`);
    let result;
    try {
      const { abRun } = await import('../../ab/ab.js'); // reads definitions: YAML and zod, which other commands need not load
      const { checkRunArguments } = await import('../commands/run.js');
      result = await abRun({
        baseRef: base,
        ...(refs[0] !== undefined ? { newRef: refs[0] } : {}),
        runArgs: runArgs.length > 0 ? runArgs : DEFAULT_AB_RUN,
        rounds: o.rounds,
        outDir,
        cacheDir: o.cacheDir,
        cwd: process.cwd(),
        compare: { ...compareOptionsOf(o, `rerun with --rounds ${MIN_REPS} or more`), moreRounds: `rerun with more --rounds than ${o.rounds}` },
        log,
        checkRunArgs: checkRunArguments,
      });
    } catch (err) {
      if (err instanceof SettingsRefusal) return printRefusal('ab', err);
      if (err instanceof Interrupted) {
        log(`ab: interrupted; the rounds run so far are in ${outDir}`);
        process.exitCode = err.exitCode;
        return;
      }
      throw err;
    }
    log(`runs: base ${result.runs.seconds.base.toFixed(1)} s, new ${result.runs.seconds.new.toFixed(1)} s of wall time; ${result.runs.baseCsv} and ${result.runs.newCsv}`);
    noteSettings('ab', result.comparison, o.format as CompareFormat);
    emit(formatComparison(result.comparison, o.format as CompareFormat), o.out);
    process.exitCode = result.comparison.exitCode === 1 ? 1 : result.runs.badInput ? 2 : 0;
  });
}
