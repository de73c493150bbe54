#!/usr/bin/env node
import { Command } from 'commander';
import { inputProblems } from '../corpus/errors.js';
import { trackInputFiles } from '../corpus/input-files.js';
import { ParamError } from '../solvers/api/params.js';
import { stdoutFailureReason, writeStdoutFileWhole } from './io/stdout-file.js';
import { EXIT_FAILED, Failure, thrownMessage, UsageError } from './io/thrown.js';
import { VERSION } from './run/version.js';
import { registerCommands } from './cli/commands.js';

/** Exit code for bad input (malformed puzzle, bad option). */
export const EXIT_BAD_INPUT = 2;

// A closed pipe (`nonobench … | head`) or a full disk behind stdout or stderr loses what is printed
// there, never the work: a run goes on and its CSV is complete. For the commands whose product is
// what they print (cnf, solve, convert -, …) a stdout that could not take it (a full disk, a
// file-size limit, not a reader that stopped reading) is a failure, exit 1.
// The running command, named in the help pointer of a usage error its action finds.
let running = '';
let stdoutFailure: NodeJS.ErrnoException | undefined;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') stdoutFailure ??= err;
});
writeStdoutFileWhole();
process.stderr.on('error', () => {});
// Node ignores SIGXFSZ, so a write past a file-size limit (`ulimit -f`) fails with EFBIG, which each
// writer reports as it does a full disk. signal-exit (which proper-lockfile loads) re-sends the
// signal with its default action when it is its only listener, killing the process without a word:
// a listener of ours keeps the signal harmless in every command.
process.on('SIGXFSZ', () => {});
/** Commands whose product is a file: what they print on stdout is a summary. */
const PRODUCT_IN_A_FILE = new Set(['run', 'bench-check', 'merge']);
process.on('exit', () => {
  if (!stdoutFailure || PRODUCT_IN_A_FILE.has(running)) return;
  process.stderr.write(`nonobench: the output could not be written to stdout (${stdoutFailureReason(stdoutFailure)})\n`);
  if (!process.exitCode) process.exitCode = 1;
});

// One process, one command: an output path naming a file it read is refused (see input-files.ts).
trackInputFiles();

const program = new Command();
program
  .name('nonobench')
  .description('Benchmarking harness for nonogram solvers')
  .version(VERSION)
  .showHelpAfterError('(see nonobench --help)')
  .exitOverride((err) => {
    // commander's own usage errors are bad input too.
    process.exit(err.exitCode === 0 ? 0 : EXIT_BAD_INPUT);
  });
await registerCommands(program, process.argv.slice(2));
program.hook('preAction', (_program, action) => {
  running = action.name();
});
// A usage error gets its one line and a pointer to the command's help, not the whole help.
for (const command of program.commands) command.showHelpAfterError(`(see nonobench ${command.name()} --help)`);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  const problems = inputProblems(err);
  if (problems) {
    for (const p of problems) process.stderr.write(`${p.message}\n`);
  } else {
    process.stderr.write(`nonobench: ${thrownMessage(err)}\n`);
    const helpOf = (err instanceof UsageError && err.command) || running;
    if ((err instanceof UsageError || err instanceof ParamError) && helpOf) process.stderr.write(`(see nonobench ${helpOf} --help)\n`);
  }
  // An output a full disk could not take, or a build that broke, is a failure, not bad input.
  process.exitCode = err instanceof Failure ? EXIT_FAILED : EXIT_BAD_INPUT;
}
