import type { InputError } from '../../corpus/errors.js';
import { loadCorpus } from '../../corpus/load.js';
import { refuseInputAsOutput } from '../../corpus/input-files.js';
import type { Puzzle } from '../../corpus/model.js';
import { BUNDLED_CORPUS } from '../../corpus/paths.js';
import { deadlineAfter } from '../../solvers/api/types.js';
import { classify, PUZZLE_CLASSES, type Classification, type PuzzleClass } from './classify.js';
import type { ClassifyReply } from './worker.js';
import { SolverPool } from '../run/pool.js';
import { workerFile } from '../io/worker-file.js';
import type { TaskOutcome } from '../results/outcome.js';
import { createProgress } from '../run/progress.js';
import { formatTable } from '../io/table.js';
import type { RunRow } from '../results/row.js';
import { difficultyRanks } from './difficulty.js';

export interface ClassifyRunOptions {
  /** The files the command will write: refused when one is a puzzle file read. */
  outputs?: string[];
  /** Puzzle paths (files, bundles, FILE#N members, directories); the bundled corpus when empty. */
  paths: string[];
  /** Per-puzzle limit in seconds; 0 for none. */
  timeoutS: number;
  /** Worker threads; 0 classifies in this thread with the cancellation check only. */
  workers: number;
  memoryMb: number;
  /** Largest accepted puzzle width or height (the loader's default when absent). */
  maxSize?: number;
  quiet: boolean;
  /** Where progress and load errors go (stderr by default). */
  log?: NodeJS.WriteStream;
}

export interface ClassifiedPuzzle {
  puzzle: Puzzle;
  /** Null when the puzzle's thread was stopped (hard time limit, memory) or failed: its class is `unknown`. */
  classification: Classification | null;
  timeMs: number | null;
  /** Why there is no classification, or ''. */
  error: string;
  /** 1 for the hardest puzzle of the run (see difficulty.ts); null for one without a difficulty. */
  difficultyRank: number | null;
}

export interface ClassifyRunResult {
  /** One per puzzle, in corpus order. */
  results: ClassifiedPuzzle[];
  loadErrors: InputError[];
  /** Puzzles whose thread failed with an error or ran out of memory (a time limit is not a failure). */
  failures: number;
}

export const classOf = (r: ClassifiedPuzzle): PuzzleClass => r.classification?.class ?? 'unknown';

function fromOutcome(puzzle: Puzzle, outcome: TaskOutcome): ClassifiedPuzzle {
  switch (outcome.kind) {
    case 'done': {
      // The pool is typed for the run worker; this pool runs the classify worker, whose reply this is.
      const reply = outcome.reply as unknown as ClassifyReply;
      return { puzzle, classification: reply.classification, timeMs: reply.timeMs, error: '', difficultyRank: null };
    }
    case 'killed':
      return { puzzle, classification: null, timeMs: outcome.elapsedMs, error: 'stopped at the hard time limit', difficultyRank: null };
    case 'memory':
    case 'error':
      return { puzzle, classification: null, timeMs: null, error: outcome.message.replace(/\s+/g, ' ').trim(), difficultyRank: null };
  }
}

/**
 * Classifies every puzzle of the paths.
 *
 * By default each puzzle runs on a worker thread of the pool: the classifier polls its deadline,
 * but one stage can overrun it between polls (a long probing round, a huge line), and the pool
 * terminates a thread that is still busy at the hard limit, so no puzzle can hold the run up;
 * the threads also use every core. `workers: 0` runs in this thread with the soft check only
 * (for debugging and tests).
 */
export async function classifyCorpus(options: ClassifyRunOptions): Promise<ClassifyRunResult> {
  const log = options.log ?? process.stderr;
  const paths = options.paths.length > 0 ? options.paths : [BUNDLED_CORPUS];
  const { puzzles, errors } = loadCorpus(paths, options.maxSize !== undefined ? { maxSize: options.maxSize } : {});
  for (const e of errors) log.write(`${e.message}\n`);
  // Before any puzzle is classified: an output that would replace a puzzle file read.
  for (const output of options.outputs ?? []) refuseInputAsOutput(output);

  const timeoutMs = options.timeoutS > 0 ? options.timeoutS * 1000 : Infinity;
  const results: ClassifiedPuzzle[] = new Array(puzzles.length);
  const progress = createProgress(puzzles.length, log, options.quiet);
  let unknown = 0;
  let failures = 0;
  const record = (index: number, r: ClassifiedPuzzle, failed = false) => {
    results[index] = r;
    if (classOf(r) === 'unknown') unknown++;
    if (failed) failures++;
    progress.tick({ timeouts: unknown, errors: failures });
  };

  try {
    if (options.workers === 0) {
      puzzles.forEach((puzzle, i) => {
        const start = performance.now();
        const classification = classify(puzzle, { shouldStop: deadlineAfter(timeoutMs) });
        record(i, { puzzle, classification, timeMs: performance.now() - start, error: '', difficultyRank: null });
      });
    } else {
      const pool = new SolverPool({ workers: options.workers, memoryMb: options.memoryMb, filename: workerFile('classify/worker.js') });
      try {
        let next = 0;
        // At most one puzzle per worker in flight, so each puzzle's clock starts when it does.
        const lane = async () => {
          while (next < puzzles.length) {
            const i = next++;
            const puzzle = puzzles[i]!;
            const outcome = await pool.run({ puzzle, strategySpec: 'classify', maxSolutions: 2, timeoutMs, warmup: 0 });
            record(i, fromOutcome(puzzle, outcome), outcome.kind === 'error' || outcome.kind === 'memory');
          }
        };
        await Promise.all(Array.from({ length: Math.min(options.workers, puzzles.length) }, lane));
      } finally {
        await pool.close();
      }
    }
  } finally {
    progress.stop();
  }
  difficultyRanks(results.map((r) => r.classification)).forEach((rank, i) => (results[i]!.difficultyRank = rank));
  return { results, loadErrors: errors, failures };
}

/** A classify CSV row: the columns it shares with a run CSV mean the same there. */
export interface ClassifyRow
  extends Pick<RunRow, 'puzzle_id' | 'puzzle_path' | 'title' | 'width' | 'height' | 'dead_ends' | 'decisions' | 'max_depth' | 'solutions_found' | 'time_ms' | 'timeout_s' | 'error'> {
  class: PuzzleClass;
  difficulty_rank: number | '';
  decided_by: string;
  overlap_resolved_pct: number | '';
  line_resolved_pct: number | '';
  line_passes: number | '';
  probe_resolved_pct: number | '';
  probes: number | '';
  probes_decisive: number | '';
  differing_cells: number | '';
}

/** The columns of a classify CSV, in order. */
export const CLASSIFY_COLUMNS = [
  'puzzle_id',
  'puzzle_path',
  'title',
  'width',
  'height',
  'class',
  'difficulty_rank',
  'decided_by',
  'overlap_resolved_pct',
  'line_resolved_pct',
  'line_passes',
  'probe_resolved_pct',
  'probes',
  'probes_decisive',
  'dead_ends',
  'decisions',
  'max_depth',
  'solutions_found',
  'differing_cells',
  'time_ms',
  'timeout_s',
  'error',
] as const satisfies readonly (keyof ClassifyRow)[];

// A field of ClassifyRow missing from CLASSIFY_COLUMNS fails here.
const everyColumnListed: Exclude<keyof ClassifyRow, (typeof CLASSIFY_COLUMNS)[number]> extends never ? true : never = true;
void everyColumnListed;

const pct = (known: number | null, cells: number): number | '' =>
  known === null || cells === 0 ? '' : Math.round((1000 * known) / cells) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * One CSV row. The search counters are 0 when logic settled the puzzle (no guess was made) and
 * empty when there is no classification at all.
 */
export function classifyRow(r: ClassifiedPuzzle, timeoutS: number): ClassifyRow {
  const { puzzle, classification: c } = r;
  const cells = puzzle.width * puzzle.height;
  return {
    puzzle_id: puzzle.id,
    puzzle_path: puzzle.meta.source ?? '',
    title: puzzle.meta.title ?? '',
    width: puzzle.width,
    height: puzzle.height,
    class: classOf(r),
    difficulty_rank: r.difficultyRank ?? '',
    decided_by: c?.stage ?? '',
    overlap_resolved_pct: c ? pct(c.overlapResolved, cells) : '',
    line_resolved_pct: c ? pct(c.lineResolved, cells) : '',
    line_passes: c?.linePasses ?? '',
    probe_resolved_pct: c ? pct(c.probeResolved, cells) : '',
    probes: c ? c.probes : '',
    probes_decisive: c ? c.probesDecisive : '',
    dead_ends: c ? (c.search?.deadEnds ?? 0) : '',
    decisions: c ? (c.search?.decisions ?? 0) : '',
    max_depth: c ? (c.search?.maxDepth ?? 0) : '',
    solutions_found: c ? c.solutions.length : '',
    differing_cells: c?.differingCells ?? '',
    time_ms: r.timeMs === null ? '' : round3(r.timeMs),
    timeout_s: timeoutS || '',
    error: r.error,
  };
}

/** Puzzles per class, every class listed. */
export function formatClassCounts(results: ClassifiedPuzzle[]): string {
  const total = results.length;
  const body = PUZZLE_CLASSES.map((cls) => {
    const n = results.filter((r) => classOf(r) === cls).length;
    return [cls, String(n), total ? ((100 * n) / total).toFixed(1) : '-'];
  });
  body.push(['total', String(total), total ? '100.0' : '-']);
  return formatTable(['class', 'puzzles', '%'], body);
}

/** The puzzles by difficulty, hardest first, then those without a difficulty (ties keep corpus order). */
export function byDifficulty(results: readonly ClassifiedPuzzle[]): ClassifiedPuzzle[] {
  const rankOf = (r: ClassifiedPuzzle) => r.difficultyRank ?? Infinity;
  return results.map((r, i) => ({ r, i })).sort((a, b) => rankOf(a.r) - rankOf(b.r) || a.i - b.i).map(({ r }) => r);
}

/** A table of puzzles, hardest first, with their difficulty profile. */
export function formatListing(results: ClassifiedPuzzle[]): string {
  const body = byDifficulty(results).map((r) => {
    const row = classifyRow(r, 0);
    return [
      String(row.difficulty_rank),
      String(row.puzzle_path || r.puzzle.id),
      `${r.puzzle.width}x${r.puzzle.height}`,
      String(row.class),
      String(row.line_passes),
      String(row.line_resolved_pct),
      row.probes === '' ? '' : `${row.probes_decisive}/${row.probes}`,
      String(row.dead_ends),
      String(row.max_depth),
      String(row.differing_cells),
      r.timeMs === null ? '' : r.timeMs.toFixed(1),
    ];
  });
  return formatTable(['rank', 'puzzle', 'size', 'class', 'line passes', 'line %', 'probes decisive/tried', 'dead ends', 'max depth', 'differing', 'ms'], body);
}
