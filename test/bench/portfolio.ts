/**
 * A portfolio against the per-puzzle best of the single strategies, from run CSVs.
 *
 *   nonobench run PATHS… -s backtrack,probe,sat,auto --repeat 3 --out run.csv
 *   node dist/test/bench/portfolio.js run.csv… [--portfolio auto[,autol…]] [--time cpu|wall] [--set LABEL=PREFIX]…
 *
 * Puzzles are grouped into sets by the folder (or bundle) they were read from, or with
 * `--set LABEL=PREFIX` (repeatable) by the start of their path. For each set and
 * configuration: puzzles solved, total time (PAR-2: an unsolved puzzle counts twice its time
 * limit), the share solved under 0.1 s and the slowest; then the virtual best of the configurations
 * other than the portfolios (on each puzzle, the fastest of them; `--portfolio` names one or more,
 * comma-separated, such as `auto` in two settings), and each portfolio's total as a
 * ratio to it, with the puzzles some single configuration solved and the portfolio did not. A
 * puzzle's time is the median over its repetitions (CPU time by default: steadier on a shared
 * machine).
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { median } from '../../harness/results/median.js';

const { values: args, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    portfolio: { type: 'string', default: 'auto' },
    time: { type: 'string', default: 'cpu' },
    set: { type: 'string', multiple: true, default: [] },
  },
});
const named = args.set!.map((s) => s.split('='));
if (files.length === 0 || !['cpu', 'wall'].includes(args.time!) || named.some((n) => n.length !== 2)) {
  console.error('usage: node dist/test/bench/portfolio.js RUN.csv… [--portfolio CONFIG[,CONFIG…]] [--time cpu|wall] [--set LABEL=PREFIX]…');
  process.exit(2);
}
const setOf = (path: string): string =>
  named.find(([, prefix]) => path.startsWith(prefix!))?.[0] ?? (path.includes('#') ? path.slice(0, path.indexOf('#')) : dirname(path));

const SOLVED = new Set(['unique', 'multiple', 'solved', 'contradiction']);
const timeColumn = args.time === 'cpu' ? 'cpu_ms' : 'time_ms';

interface Row {
  puzzle_path: string;
  config: string;
  status: string;
  timeout_s: string;
  time_ms: string;
  cpu_ms: string;
}

/** Per set, per puzzle, per configuration: the times of solved repetitions, or null once one was not solved. */
const sets = new Map<string, Map<string, Map<string, number[] | null>>>();
const configs = new Set<string>();
let limitMs = 0;
for (const file of files) {
  const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true }) as Row[];
  for (const row of rows) {
    const path = row.puzzle_path;
    const set = setOf(path);
    const puzzles = sets.get(set) ?? new Map<string, Map<string, number[] | null>>();
    sets.set(set, puzzles);
    const times = puzzles.get(path) ?? new Map<string, number[] | null>();
    puzzles.set(path, times);
    configs.add(row.config);
    limitMs = Math.max(limitMs, Number(row.timeout_s) * 1000);
    const seen = times.get(row.config);
    if (seen === null) continue;
    if (!SOLVED.has(row.status)) times.set(row.config, null);
    else times.set(row.config, [...(seen ?? []), Number(row[timeColumn])]);
  }
}

const portfolios = args.portfolio!.split(',').map((c) => c.trim());
const singles = [...configs].filter((c) => !portfolios.includes(c));
const unsolvedTime = 2 * limitMs;
const timeOf = (times: Map<string, number[] | null>, config: string): number => {
  const t = times.get(config);
  return t ? median(t) : unsolvedTime;
};
const seconds = (ms: number) => (ms / 1000).toFixed(3).padStart(8);

console.log(`${args.time === 'cpu' ? 'CPU' : 'wall'} time; an unsolved puzzle counts ${unsolvedTime / 1000} s (PAR-2)\n`);
for (const [set, puzzles] of [...sets].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${set}: ${puzzles.size} puzzles`);
  const lines: [string, number[]][] = [...configs].sort().map((c) => [c, [...puzzles.values()].map((t) => timeOf(t, c))]);
  lines.push(['best single', [...puzzles.values()].map((t) => Math.min(...singles.map((c) => timeOf(t, c))))]);
  const best = lines[lines.length - 1]![1].reduce((a, b) => a + b, 0);
  for (const [name, times] of lines) {
    const solved = times.filter((t) => t < unsolvedTime);
    const total = times.reduce((a, b) => a + b, 0);
    console.log(
      `  ${name.padEnd(14)} solved ${String(solved.length).padStart(5)}  total ${seconds(total)} s  < 0.1 s ${((100 * times.filter((t) => t < 100).length) / times.length).toFixed(1).padStart(5)} %` +
        `  slowest ${seconds(Math.max(0, ...solved))} s  ×${(total / best).toFixed(2)} of best single`,
    );
  }
  for (const portfolio of portfolios.filter((c) => configs.has(c))) {
    const missed = [...puzzles].filter(([, t]) => !t.get(portfolio) && singles.some((c) => t.get(c))).map(([p]) => p);
    console.log(`  solved by a single configuration but not by ${portfolio}: ${missed.length === 0 ? 'none' : missed.join(', ')}`);
  }
  console.log('');
}
