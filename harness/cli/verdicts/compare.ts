import { InvalidArgumentError, Option, type Command } from 'commander';
import { compareFiles, DEFAULT_COMPARE_OPTIONS, SettingsRefusal, settingsLines, TIME_CHOICES, type CompareOptions, type CompareResult, type TimeChoice } from '../../compare/compare.js';
import { COMPARE_FORMATS, comparisonChunks, inconclusiveLine, roundsInconclusiveLine, type CompareFormat } from '../../compare/format.js';
import { writeOutputFile } from '../../io/output-path.js';
import { nonEmpty, nonNegativeNumber } from '../options.js';

/** A plain non-negative decimal: no sign, hex, exponent, padding or empty string (all of which Number takes). */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

/** A percentage option ("10" or "10%") as a fraction. */
export function percent(name: string) {
  return (value: string): number => {
    const digits = value.replace(/%$/, '');
    if (!DECIMAL.test(digits)) throw new InvalidArgumentError(`${name} must be a percentage ≥ 0, e.g. 10`);
    return Number(digits) / 100;
  };
}

/** "0.95" (a fraction in (0, 1)) or "95%" (a percentage in (0, 100)); a bare 95 is refused as ambiguous. */
export function confidenceLevel(value: string): number {
  const pct = value.endsWith('%');
  const digits = pct ? value.slice(0, -1) : value;
  const fraction = DECIMAL.test(digits) ? Number(digits) / (pct ? 100 : 1) : NaN;
  if (!(fraction > 0 && fraction < 1))
    throw new InvalidArgumentError(`--confidence must be a fraction between 0 and 1 or a percentage between 0% and 100%, e.g. 0.95 or 95%; got "${value}"`);
  return fraction;
}

/** The options compare and bench-check share. */
export function addCompareOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--threshold <percent>', 'noise threshold in percent: flag only changes surely beyond it')
        .argParser(percent('--threshold'))
        .default(DEFAULT_COMPARE_OPTIONS.threshold, '10'),
    )
    .addOption(
      new Option('--confidence <level>', 'confidence level of the intervals: a fraction (0.95) or a percentage (95%)').argParser(confidenceLevel).default(DEFAULT_COMPARE_OPTIONS.confidence, '0.95'),
    )
    .option('--min-time <ms>', 'never flag time changes of pairs faster than this on both sides: below it timer and scheduler noise dominate', nonNegativeNumber('--min-time'), DEFAULT_COMPARE_OPTIONS.minTimeMs)
    .option('--strict-counters', 'fail on changes of dead_ends, decisions or line_solves too')
    .addOption(
      new Option('--time <basis>', 'time to judge: cpu (cpu_ms), wall (time_ms), or auto: CPU time when both runs have it, else wall time')
        .choices(TIME_CHOICES)
        .default(DEFAULT_COMPARE_OPTIONS.time),
    )
    .option('--raw-times', 'compare wall times as measured, without discounting a change of machine speed (calib_ms)')
    .option('--allow-different', 'compare runs whose time limit, solution cap, warm-up, parameters or definition differ, instead of refusing them')
    .addOption(new Option('--format <format>', 'output format').choices(COMPARE_FORMATS).default('table'))
    .option('--out <file>', 'write the output to this file instead of stdout', nonEmpty('--out'));
}

export function compareOptionsOf(o: {
  threshold: number;
  confidence: number;
  minTime: number;
  strictCounters?: boolean;
  rawTimes?: boolean;
  time?: TimeChoice;
  allowDifferent?: boolean;
}, moreReps = DEFAULT_COMPARE_OPTIONS.moreReps): CompareOptions {
  return {
    threshold: o.threshold,
    confidence: o.confidence,
    minTimeMs: o.minTime,
    strictCounters: !!o.strictCounters,
    normalize: !o.rawTimes,
    time: o.time ?? DEFAULT_COMPARE_OPTIONS.time,
    allowDifferent: !!o.allowDifferent,
    moreReps,
  };
}

export function emit(text: string, out: string | undefined): void {
  if (out !== undefined) writeOutputFile(out, text); // like run's --out: a new reports folder is made
  else process.stdout.write(text);
}

/** emit for output written in pieces (a large comparison need not fit in one string), replacing --out as emit does. */
export function emitChunks(chunks: Iterable<string>, out: string | undefined): void {
  if (out === undefined) {
    for (const chunk of chunks) process.stdout.write(chunk);
    return;
  }
  writeOutputFile(out, chunks);
}

/**
 * Runs a comparison; runs whose settings differ are refused with one line per difference on stderr
 * (`compare: A and B differ in timeout_s: 10 vs 5; give --allow-different …`) and exit 2.
 */
export function refusingDifferent(command: string, compare: () => CompareResult): CompareResult | null {
  try {
    return compare();
  } catch (err) {
    if (!(err instanceof SettingsRefusal)) throw err;
    printRefusal(command, err);
    return null;
  }
}

/** A refusal's lines on stderr, and exit code 2. */
export function printRefusal(command: string, refusal: SettingsRefusal): void {
  for (const line of refusal.lines(command)) process.stderr.write(`${line}\n`);
  process.exitCode = 2;
}

/** The csv format has no header: the differences of settings, and pairs whose time was not judged, go to stderr, one line each. */
export function noteSettings(command: string, result: CompareResult, format: CompareFormat): void {
  if (format !== 'csv') return;
  for (const line of settingsLines(command, result.base.file, result.next.file, result.settings, true)) process.stderr.write(`${line}\n`);
  for (const line of [inconclusiveLine(result), roundsInconclusiveLine(result)]) if (line) process.stderr.write(`${command}: ${line}\n`);
}

export function registerCompare(program: Command): void {
  addCompareOptions(
    program
      .command('compare')
      .description('compare two run CSVs: time regressions with confidence intervals, status and counter changes (exit 1 on a regression)')
      .argument('<base>', 'the reference run CSV')
      .argument('<new>', 'the run CSV to check against it'),
  )
    .option('--paired-rounds', "repetition r of both runs ran in the same round, one after the other (as ab's base.csv and new.csv): judge each strategy over the rounds")
    .action((base: string, next: string, o) => {
      const options = { ...compareOptionsOf(o), pairedRounds: !!o.pairedRounds, moreRounds: 'run ab again with more --rounds' };
      const result = refusingDifferent('compare', () => compareFiles(base, next, options));
      if (!result) return;
      noteSettings('compare', result, o.format as CompareFormat);
      emitChunks(comparisonChunks(result, o.format as CompareFormat), o.out);
      process.exitCode = result.exitCode;
    });
}
