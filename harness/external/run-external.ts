import { constants as bufferConstants } from 'node:buffer';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { writeJson } from '../../corpus/formats/json.js';
import { writeNon } from '../../corpus/formats/non.js';
import { writeWebpbnXml } from '../../corpus/formats/xml.js';
import type { Grid, Puzzle } from '../../corpus/model.js';
import { statusOfSolutions, type SolveResult } from '../../solvers/api/types.js';
import { dimacsPieces } from '../../solvers/sat/dimacs/dimacs.js';
import { cnfComments } from '../../solvers/sat/encodings/cnf-comments.js';
import { blockingClause, decodeGrid, DEFAULT_ENCODING, encodeNonogramSteps, type FlatNonogramCnf } from '../../solvers/sat/encodings/encode.js';
import { oneLine, thrownMessage } from '../io/thrown.js';
import type { ResourceUsage, TaskOutcome } from '../results/outcome.js';
import { AdapterError, unreported } from './adapters.js';
import { MAX_STDOUT_BYTES, runLimited, type ProcessRun } from './process.js';
import { readAnswerAside } from './read-answer.js';
import { readRegularFile, ScratchFileError, writeFresh } from './scratch-files.js';
import { fillPlaceholders, type InputFormat, type ResolvedExternal } from './spec.js';
import { removeDir } from './task-signals.js';

export interface ExternalTask {
  /** The puzzle as solvers see it: clues only. */
  puzzle: Puzzle;
  solver: ResolvedExternal;
  maxSolutions: number;
  /** The soft limit (SIGTERM) in ms, Infinity for none. */
  timeoutMs: number;
  /** When its processes get SIGKILL, in ms from the start. */
  hardLimitMs: number;
  memoryMb: number;
}

const INPUT_FILE: Record<InputFormat, string> = { non: 'puzzle.non', xml: 'puzzle.xml', json: 'puzzle.json', cnf: 'puzzle.cnf' };

/** What an out-of-memory death prints, in the runtimes and C libraries solvers are written with. */
const OUT_OF_MEMORY = /out of memory|cannot allocate|bad_alloc|allocation failed|memory allocation of|memory exhausted|MemoryError|OutOfMemoryError/i;

/** What usually names the cause in a program's last words. */
const CAUSE = /error|exception|cannot|can't|fatal|not found|no such|denied|failed/i;

/**
 * The lines of a solver's stderr an error row shows: from the first that matches `first` (or else
 * names a cause, as a stack trace's message does) the next three, or else the last three.
 */
const stderrLines = (tail: string, first: RegExp = CAUSE) => {
  const all = tail.trimEnd().split(/\r?\n/).map(oneLine).filter(Boolean);
  const from = all.findIndex((l) => first.test(l));
  const lines = from >= 0 ? all.slice(from, from + 3) : all.slice(-3);
  return lines.length > 0 ? `; stderr: ${lines.join(' | ').slice(0, 300)}` : '';
};

const exitDescription = (run: ProcessRun) => (run.signal ? `killed by signal ${run.signal}` : `exit status ${run.code}`);

/** Puts the calls' resource figures together: CPU time adds up, peak memory is the largest. */
function addUsage(total: ResourceUsage, run: ProcessRun): ResourceUsage {
  return {
    cpuMs: total.cpuMs === '' || run.cpuMs === '' ? '' : total.cpuMs + run.cpuMs,
    peakRssKb: total.peakRssKb === '' || run.peakRssKb === '' ? '' : Math.max(total.peakRssKb, run.peakRssKb),
  };
}

/**
 * Why a call's end is not an answer to read (a crash, a stop, an exit code its adapter does not
 * take), as the task's outcome; undefined when its output is to be read.
 */
function failedCall(run: ProcessRun, task: ExternalTask, accepted: readonly number[], elapsedMs: number, maxStdoutBytes = MAX_STDOUT_BYTES): TaskOutcome | undefined {
  if (run.startError !== undefined) return { kind: 'error', message: `cannot start ${task.solver.program}: ${run.startError}` };
  if (run.stopped === 'timeout') return { kind: 'killed', elapsedMs, message: 'stopped at the time limit (its processes were killed)' };
  if (run.stopped === 'memory')
    return { kind: 'memory', message: `over the ${task.memoryMb} MiB cap with the memory it maps shared (${Math.round(run.heldKb! / 1024)} MiB in one process; its processes were killed)` };
  if (run.stopped === 'output') return { kind: 'error', elapsedMs, message: `printed more than ${+(maxStdoutBytes / 1024 / 1024).toFixed(1)} MiB on stdout` };
  if (run.signal === null && accepted.includes(run.code!)) return undefined;
  // A peak near the cap counts only in a death by signal (a failed allocation met unchecked): the
  // peak also holds file pages, which the cap does not limit, so an ordinary error can come near it.
  const nearCap = run.signal !== null && run.peakRssKb !== '' && run.peakRssKb >= task.memoryMb * 1024 * 0.9;
  if (OUT_OF_MEMORY.test(run.stderrTail) || nearCap)
    return { kind: 'memory', message: `out of memory under the ${task.memoryMb} MiB cap (${exitDescription(run)})${stderrLines(run.stderrTail, OUT_OF_MEMORY)}` };
  return { kind: 'error', elapsedMs, message: `${exitDescription(run)}${stderrLines(run.stderrTail)}` };
}

/** The longest a model of `numVars` variables can be: a value of up to 11 characters each, and room for comments. */
const modelLimitBytes = (numVars: number) => (1 << 20) + 12 * numVars;

/**
 * The most a SAT solver may print on stdout: as much as its model may take (a 300×300 puzzle's
 * automaton CNF has 10 million variables, 100 MB of `v` lines), at least MAX_STDOUT_BYTES, and
 * never more than one string holds.
 */
const modelStdoutLimit = (numVars: number) => Math.min(Math.max(MAX_STDOUT_BYTES, modelLimitBytes(numVars)), bufferConstants.MAX_STRING_LENGTH);

/**
 * A model file's text. One far longer than any model of `numVars` variables is refused unread:
 * reading and parsing it would hold up every other task's clock. So is anything but a regular file
 * (a named pipe would never open).
 */
function readModelFile(path: string, numVars: number): string {
  const limit = modelLimitBytes(numVars);
  try {
    return readRegularFile(path, 'a model file', limit, `the ${limit} any model of ${numVars} variables needs`);
  } catch (err) {
    if (err instanceof ScratchFileError) throw new AdapterError(err.message);
    throw err;
  }
}

/** A puzzle's CNF as the solver gets it: flat clauses (a 300×300 one has tens of millions), with its comments. */
type ExternalCnf = FlatNonogramCnf & { comments: string[] };

/**
 * The puzzle in the solver's input format (the text, or with `cnf` its pieces: longer than one
 * string can be), and the CNF for decoding models.
 */
async function inputOf(task: ExternalTask): Promise<{ text: string | Iterable<string>; cnf?: ExternalCnf }> {
  const { puzzle, solver } = task;
  switch (solver.input) {
    case 'non':
      return { text: writeNon(puzzle) };
    case 'xml':
      return { text: writeWebpbnXml(puzzle) };
    case 'json':
      return { text: writeJson(puzzle) };
    case 'cnf': {
      const encoding = solver.encoding ?? DEFAULT_ENCODING;
      // A line at a time, letting others run between: a 300×300 puzzle takes the thread seconds.
      const steps = encodeNonogramSteps(puzzle, { encoding });
      let step = steps.next();
      for (; !step.done; step = steps.next()) await nextTurn();
      const flat = step.value;
      const cnf = { ...flat, comments: cnfComments(puzzle, flat, encoding) };
      return { text: dimacsPieces(cnf), cnf };
    }
  }
}

/**
 * Runs one task of an external solver in a scratch folder of its own, removed afterwards. With
 * `dimacs-model`, a satisfiable answer is followed by calls with the solutions found so far blocked,
 * until `maxSolutions` are found or the solver says there are no more, as the sat strategy does.
 */
export async function runExternalTask(task: ExternalTask): Promise<TaskOutcome> {
  let dir: string | undefined;
  try {
    // Inside the try: a temp folder that cannot be made (removed or filled by an earlier solver) is
    // this task's error row, not the end of the run.
    dir = mkdtempSync(join(tmpdir(), 'nonobench-task-'));
    return await runInDir(task, dir);
  } catch (err) {
    return { kind: 'error', message: `could not run ${task.solver.program}: ${thrownMessage(err)}` };
  } finally {
    if (dir !== undefined) removeDir(dir);
  }
}

async function runInDir(task: ExternalTask, dir: string): Promise<TaskOutcome> {
  const { puzzle, solver } = task;
  const inputPath = join(dir, INPUT_FILE[solver.input]);
  const modelPath = join(dir, 'model.txt');
  // The input goes to a file of its own each call (the solver may have replaced the last one), and
  // on stdin from that file: written before the solver starts, so its writing is not the solver's time.
  const prepared = await inputOf(task);
  const cnf = prepared.cnf;
  await writeFresh(inputPath, prepared.text);
  // Each call is told the time that is left of the task's limit.
  const argvNow = (elapsedMs: number) => {
    const leftMs = Number.isFinite(task.timeoutMs) ? Math.max(1, task.timeoutMs - elapsedMs) : 0;
    return fillPlaceholders(solver.argv, {
      puzzle: inputPath,
      cnf: inputPath,
      model: modelPath,
      timeout: String(Math.ceil(leftMs / 1000)),
      timeout_ms: String(Math.round(leftMs)),
      memory: String(task.memoryMb),
      max_solutions: String(task.maxSolutions),
      dir,
      width: String(puzzle.width),
      height: String(puzzle.height),
    });
  };
  let usage: ResourceUsage = { cpuMs: 0, peakRssKb: 0 };
  let elapsedMs = 0;
  const call = async (): Promise<ProcessRun> => {
    rmSync(modelPath, { force: true, recursive: true });
    const run = await runLimited(argvNow(elapsedMs), {
      dir,
      ...(solver.inputFile ? {} : { stdinFile: inputPath }),
      ...(solver.env ? { env: solver.env } : {}),
      ...(cnf ? { maxStdoutBytes: modelStdoutLimit(cnf.numVars) } : {}),
      limits: { softMs: task.timeoutMs - elapsedMs, hardMs: task.hardLimitMs - elapsedMs, memoryMb: task.memoryMb },
    });
    elapsedMs += run.wallMs;
    usage = addUsage(usage, run);
    return run;
  };
  const withUsage = (outcome: TaskOutcome): TaskOutcome => ({ ...outcome, usage });
  const done = (result: SolveResult): TaskOutcome => withUsage({ kind: 'done', reply: { result, timeMs: elapsedMs } });

  if (solver.output !== 'dimacs-model') {
    const run = await call();
    const failed = failedCall(run, task, [0], elapsedMs);
    if (failed) return withUsage(failed);
    try {
      const text = run.stdout;
      return done(await (solver.output === 'grid' ? readAnswerAside({ adapter: 'grid', text, puzzle, maxGrids: task.maxSolutions }) : readAnswerAside({ adapter: 'json', text, puzzle })));
    } catch (err) {
      if (err instanceof AdapterError) return withUsage({ kind: 'error', elapsedMs, message: `unreadable output: ${err.message}${stderrLines(run.stderrTail)}` });
      throw err;
    }
  }

  const solutions: Grid[] = [];
  let calls = 0;
  for (;;) {
    const run = await call();
    calls++;
    const stopped = failedCall(run, task, [0, 10, 20], elapsedMs, modelStdoutLimit(cnf!.numVars));
    // A limit reached after a solution was found leaves that solution standing, uniqueness unproved.
    if (stopped?.kind === 'killed' && solutions.length > 0) return done({ status: 'timeout', grid: solutions[0]!, solutions, metrics: unreported({ calls }) });
    if (stopped) return withUsage(stopped);
    let answer;
    try {
      const text = solver.modelFile ? readModelFile(modelPath, cnf!.numVars) : run.stdout;
      answer = await readAnswerAside({ adapter: 'dimacs-model', text, numVars: cnf!.numVars, cellVars: cnf!.cellVars });
    } catch (err) {
      const why = err instanceof AdapterError ? err.message : (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it wrote no model file' : thrownMessage(err);
      return withUsage({ kind: 'error', elapsedMs, message: `unreadable output: ${why} (${exitDescription(run)})${stderrLines(run.stderrTail)}` });
    }
    const expected = answer.status === 'sat' ? 10 : answer.status === 'unsat' ? 20 : undefined;
    if (run.code !== 0 && run.code !== expected)
      return withUsage({ kind: 'error', elapsedMs, message: `exit status ${run.code} contradicts its answer ${answer.status.toUpperCase()}${stderrLines(run.stderrTail)}` });
    if (answer.status === 'unknown') {
      const grid = solutions[0] ?? new Uint8Array(puzzle.width * puzzle.height);
      return done({ status: 'timeout', grid, solutions, metrics: unreported({ calls }) });
    }
    if (answer.status === 'sat') {
      const solution = decodeGrid(puzzle, (v) => answer.values[v] === 1);
      solutions.push(solution);
      if (solutions.length < task.maxSolutions) {
        for (const lit of blockingClause(solution)) cnf!.clauses.add(lit);
        cnf!.clauses.end();
        await writeFresh(inputPath, dimacsPieces(cnf!));
        continue;
      }
    }
    const grid = solutions[0] ?? new Uint8Array(puzzle.width * puzzle.height);
    return done({ status: statusOfSolutions(solutions.length, task.maxSolutions), grid, solutions, metrics: unreported({ calls }) });
  }
}
