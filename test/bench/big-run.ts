/**
 * Writes a realistic run CSV of any size, to measure merge, compare and report on large runs:
 * every column of RUN_COLUMNS, rows in the order a run writes them (repetition by repetition),
 * statuses, times with noise, deterministic counters, JSON params and extra, titles needing quotes.
 *
 *   node dist/test/bench/big-run.js --puzzles 2000 --configs 5 --reps 100 --out big.csv
 *   node dist/test/bench/big-run.js … --seed 2 --slower backtrack=1.5 --out new.csv   (a NEW run: other noise, one configuration slower)
 *   node dist/test/bench/big-run.js … --pad 250 --out long.csv   (longer rows: a million make 650 MB, past V8's longest string)
 *   /usr/bin/time -v node dist/harness/cli.js report big.csv
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BufferedWriter, csvRecord } from '../../harness/results/csv.js';
import { RUN_COLUMNS } from '../../harness/results/row.js';
import { seeded as random } from './seeded.js';

export interface BigRunOptions {
  puzzles: number;
  configs: number;
  reps: number;
  /** Seed of the noise: two seeds are two measurements of the same code. */
  seed?: number;
  /** Configurations made slower by a factor (a NEW run with a regression). */
  slower?: Record<string, number>;
  /** Shard K of N (0-based K): only every N-th puzzle from K, as `run --shard` writes. */
  shard?: [number, number];
  /** Characters added to every row's extra (strategies that report many counters write longer rows). */
  pad?: number;
}

const STRATEGIES = ['enumeration', 'overlap', 'backtrack', 'probe', 'sat'];
const PARAMS: Record<string, string> = {
  enumeration: '{"maxPlacements":4000000}',
  overlap: '{}',
  backtrack: '{"probing":true}',
  probe: '{}',
  sat: '{"encoding":"blocks","propagate":true,"probe":false,"cellDecisions":false}',
};


/** The configurations: the built-ins, then settings of sat. */
const configOf = (c: number) => {
  const strategy = STRATEGIES[c % STRATEGIES.length]!;
  return { strategy, name: c < STRATEGIES.length ? strategy : `${strategy}:variant=${Math.floor(c / STRATEGIES.length)}` };
};

/** Writes the run to `out`; returns the number of rows. */
export function writeBigRun(out: string, o: BigRunOptions): number {
  const fd = openSync(out, 'w');
  const writer = new BufferedWriter(fd);
  writer.write(csvRecord(RUN_COLUMNS));
  const fixed = random(12345); // what does not depend on the measurement: puzzles, counters, statuses
  const puzzles = Array.from({ length: o.puzzles }, (_x, p) => {
    const side = [10, 15, 20, 25, 30][p % 5]!;
    const tournament = p % 7 === 3;
    return {
      id: createHash('sha256').update(`puzzle ${p}`).digest('hex').slice(0, 12),
      path: tournament ? `corpus/puzzles/tournament/taai2011-questions.txt#${p + 1}` : `corpus/puzzles/generated/${side}x${side}/${String(p).padStart(4, '0')}.non`,
      title: p % 11 === 0 ? `The "big" one, part ${p}` : p % 13 === 0 ? `=HYPERLINK("x",${p})` : `Puzzle ${p}`,
      side,
      hardness: Math.exp(4 * fixed() - 1),
    };
  });
  const cells = puzzles.map((p, k) =>
    Array.from({ length: o.configs }, (_y, c) => {
      const { strategy } = configOf(c);
      const solver = strategy === 'overlap' || strategy === 'enumeration';
      const status = solver && fixed() < 0.4 ? 'stuck' : p.hardness > 40 && fixed() < 0.3 ? 'timeout' : 'unique';
      const searches = strategy === 'backtrack' || strategy === 'probe' || strategy === 'sat';
      return {
        status,
        timeMs: p.hardness * (1 + c * 0.3) * (0.5 + fixed()),
        deadEnds: searches ? Math.floor(p.hardness * 10 * fixed()) : 0,
        decisions: searches ? Math.floor(p.hardness * 4 * fixed()) : 0,
        lineSolves: 50 + Math.floor(p.hardness * 100 * fixed()) + k,
        maxDepth: searches ? Math.floor(Math.log2(1 + p.hardness * 10)) : 0,
      };
    }),
  );
  let rows = 0;
  const pad = o.pad ? `,"note":"${'x'.repeat(o.pad)}"` : '';
  const started = '2025-06-01T12:00:00.000Z';
  for (let rep = 1; rep <= o.reps; rep++)
    for (let p = 0; p < o.puzzles; p++) {
      if (o.shard && p % o.shard[1] !== o.shard[0]) continue;
      const puzzle = puzzles[p]!;
      for (let c = 0; c < o.configs; c++) {
        const { strategy, name } = configOf(c);
        const cell = cells[p]![c]!;
        const task = (p * o.configs + c) * o.reps + rep - 1;
        // Noise drawn from the task itself, so that a shard holds exactly the rows of the whole run.
        const noise = random((o.seed ?? 1) * 1000003 + task);
        const calib = 3.2 * (0.97 + 0.06 * random((o.seed ?? 1) * 7919 + Math.floor(task / 500))());
        const timeout = cell.status === 'timeout';
        const time = timeout ? 12500 + 100 * noise() : cell.timeMs * (o.slower?.[name] ?? 1) * (0.95 + 0.1 * noise());
        const total = puzzle.side * puzzle.side;
        const resolved = cell.status === 'stuck' ? Math.floor(total * 0.6) : total;
        const counters = timeout ? ['', '', '', '', '', '', ''] : [resolved, Math.round((1000 * resolved) / total) / 10, cell.deadEnds, cell.decisions, cell.lineSolves, 1, cell.maxDepth];
        if (cell.status === 'stuck') counters[5] = 0;
        const row = [
          '20250601T120000-3f9a1c',
          started,
          '0.1.0',
          '3f2c9e1a7b5d',
          'v20.20.2',
          'AMD EPYC 7763 64-Core Processor',
          task,
          puzzle.id,
          puzzle.path,
          puzzle.title,
          puzzle.side,
          puzzle.side,
          strategy,
          name,
          '',
          rep,
          cell.status,
          cell.status === 'unique' ? 'true' : '',
          time.toFixed(3),
          (time * 0.98).toFixed(3),
          '',
          calib.toFixed(3),
          total,
          ...counters,
          10,
          2,
          2,
          0,
          2048,
          PARAMS[strategy],
          '',
          timeout ? '' : `{"cacheHits":${cell.lineSolves * 3},"cacheMisses":${cell.lineSolves},"propagations":${cell.lineSolves * 17},"restarts":0${pad}}`,
          timeout ? 'hard limit: the thread was stopped after 12.5 s' : '',
        ];
        writer.write(csvRecord(row));
        rows++;
      }
    }
  writer.flush();
  closeSync(fd);
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      puzzles: { type: 'string', default: '2000' },
      configs: { type: 'string', default: '5' },
      reps: { type: 'string', default: '100' },
      seed: { type: 'string', default: '1' },
      slower: { type: 'string' },
      shard: { type: 'string' },
      pad: { type: 'string', default: '0' },
      out: { type: 'string', default: 'big-run.csv' },
    },
  });
  const slower = values.slower ? { [values.slower.split('=')[0]!]: Number(values.slower.split('=')[1]) } : undefined;
  const shard = values.shard ? (values.shard.split('/').map(Number) as [number, number]) : undefined;
  const start = performance.now();
  const rows = writeBigRun(values.out!, {
    puzzles: Number(values.puzzles),
    configs: Number(values.configs),
    reps: Number(values.reps),
    seed: Number(values.seed),
    ...(slower ? { slower } : {}),
    ...(shard ? { shard } : {}),
    pad: Number(values.pad),
  });
  console.log(`${rows} rows written to ${values.out} in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
