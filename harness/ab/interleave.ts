import { existsSync, rmSync } from 'node:fs';
import { Interrupted, runChild } from './child.js';
import { join } from 'node:path';
import { CsvAppender, scanCsvFile } from '../results/csv.js';
import { Failure } from '../io/thrown.js';
import type { Build } from './builds.js';

/**
 * Two builds run over the same tasks in alternating rounds — BASE NEW, NEW BASE, BASE NEW … — each
 * round one repetition of every task, in a fresh process of that build's own `run`. A change of the
 * machine's speed during the runs then falls on both sides alike (as asv's `continuous` and
 * hyperfine's side-by-side runs do), instead of on whichever side ran while it lasted.
 */

export type Side = 'base' | 'new';

/** Which side runs first in each round: ABBA order, so neither side is always first (or always second). */
export function roundOrder(rounds: number): Side[][] {
  return Array.from({ length: rounds }, (_x, r) => (r % 2 === 0 ? ['base', 'new'] : ['new', 'base']));
}

export interface InterleavedOptions {
  base: Build;
  next: Build;
  /** `run`'s arguments besides --repeat and --out: puzzles and options, given alike to both builds. */
  runArgs: readonly string[];
  rounds: number;
  /** Folder for every round's CSV and the two combined ones. */
  outDir: string;
  /** Where puzzle paths are relative to. */
  cwd: string;
  log: (line: string) => void;
}

export interface InterleavedResult {
  /** Every round of a side in one CSV, repetition r being round r. */
  baseCsv: string;
  newCsv: string;
  /** Seconds of wall time each side's runs took in all. */
  seconds: Record<Side, number>;
  /** Rounds whose run reported bad input (exit 2): the same input fails both sides. */
  badInput: boolean;
}

export async function runInterleaved(o: InterleavedOptions): Promise<InterleavedResult> {
  const rounds: Record<Side, string[]> = { base: [], new: [] };
  const seconds: Record<Side, number> = { base: 0, new: 0 };
  let badInput = false;
  const order = roundOrder(o.rounds);
  for (let r = 0; r < order.length; r++) {
    const took: string[] = [];
    for (const side of order[r]!) {
      const build = side === 'base' ? o.base : o.next;
      const csv = join(o.outDir, `${side}-round${r + 1}.csv`);
      // A round CSV left by an earlier ab in this folder must never stand in for one this round did not write.
      rmSync(csv, { force: true });
      const start = performance.now();
      const { code, stderrTail } = await runRound(build, [...o.runArgs, '--repeat', '1', '--out', csv, '--quiet'], o.cwd);
      const s = (performance.now() - start) / 1000;
      seconds[side] += s;
      if (!existsSync(csv)) {
        // Bad input (exit 2) is the user's; a run that ended otherwise without its CSV failed.
        const message = `${build.label}: its run wrote no ${csv} (exit ${code})${stderrTail ? `: ${stderrTail}` : ''}`;
        throw code === 2 ? new Error(message) : new Failure(message);
      }
      if (code === 2) {
        badInput = true;
        o.log(`${build.label}: its run met bad input (exit 2): ${stderrTail}`);
      }
      rounds[side].push(csv);
      took.push(`${side} ${s.toFixed(1)} s`);
    }
    o.log(`round ${r + 1}/${order.length}: ${took.join(', ')}`);
  }
  const baseCsv = join(o.outDir, 'base.csv');
  const newCsv = join(o.outDir, 'new.csv');
  combineRounds(rounds.base, baseCsv);
  combineRounds(rounds.new, newCsv);
  return { baseCsv, newCsv, seconds, badInput };
}

/**
 * One round: the build's `run` in a process of its own. Its exit code is returned when the CSV is
 * the run's whole product (0, 1 for wrong or error rows, 2 for some bad input); a run stopped by a
 * signal ab passed on is Interrupted; anything else (a crash, a signal from elsewhere) is a
 * Failure (exit 1) with the last lines the run wrote.
 */
async function runRound(build: Build, args: string[], cwd: string): Promise<{ code: number; stderrTail: string }> {
  const end = await runChild(process.execPath, [build.cli, 'run', ...args], cwd);
  if (end.stoppedBy) throw new Interrupted(end.stoppedBy);
  if (end.code === 0 || end.code === 1 || end.code === 2) return { code: end.code, stderrTail: end.stderrTail };
  const how = end.signal ? `was killed by ${end.signal}` : `exited with ${end.code}`;
  throw new Failure(`${build.label}: its run ${how}${end.stderrTail ? `: ${end.stderrTail}` : ''}`);
}

/**
 * The rounds of one side as one run CSV, repetition r being round r (each round's run numbered
 * its single repetition 1), so that compare sees each round as a repetition, not as a repeat of it.
 */
export function combineRounds(files: readonly string[], out: string): void {
  let writer: CsvAppender | undefined;
  let columns: readonly string[] = [];
  try {
    files.forEach((file, r) => {
      let repAt = -1;
      let order: number[] = [];
      scanCsvFile(
        file,
        (row) => {
          const fields = order.map((i) => (i < 0 ? '' : row.fields[i]!));
          fields[repAt] = String(r + 1);
          writer!.write(fields);
        },
        {
          header: (cols) => {
            if (!writer) {
              columns = cols;
              writer = new CsvAppender(out, columns);
            }
            // Rounds of one build have the same columns; taken by name all the same.
            order = columns.map((c) => cols.indexOf(c));
            repAt = columns.indexOf('rep');
            if (repAt < 0) throw new Error(`${file}: has no rep column`);
          },
        },
      );
    });
  } finally {
    writer?.close();
  }
}
